# expect: ok
"""`from __future__ import annotations`: every hint is a string the SDK evaluates."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Future")


def check(title: str, ctx: Context) -> int:
    return 1


def later(n: Annotated[int, Resolve(check)]) -> str:
    return str(n)


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)], s: Annotated[str, Resolve(later)]) -> str:
    """Reserve a book."""
    return s
