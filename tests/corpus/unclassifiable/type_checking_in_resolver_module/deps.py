from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp.server.mcpserver import Context


def request_tag(title: str, ctx: Context) -> str:
    return title
