from __future__ import annotations

from mcp.server.mcpserver import Context


def load_stock(title: str, ctx: Context) -> Stock:  # noqa: F821
    raise NotImplementedError
