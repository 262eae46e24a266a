# expect: ok
"""Keyword-only tool parameters, resolved and not: order of the schema is signature order."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Kw")


def check(title: str, limit: int) -> int:
    return min(limit, 1)


@mcp.tool()
def reserve(title: str, *, n: Annotated[int, Resolve(check)], limit: int = 5, note: str = "") -> str:
    """Reserve a book."""
    return f"{title} {n} {note}"
