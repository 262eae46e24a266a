# expect: ok
"""A TYPE_CHECKING-only import used only inside a body and a resolver's local code: harmless."""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

if TYPE_CHECKING:
    from collections.abc import Sequence

mcp = MCPServer("Typing")


def words(text: str) -> list[str]:
    parts: Sequence[str] = text.split()
    return list(parts)


@mcp.tool()
def count_words(text: str, ws: Annotated[list[str], Resolve(words)]) -> int:
    """Count words."""
    return len(ws)
