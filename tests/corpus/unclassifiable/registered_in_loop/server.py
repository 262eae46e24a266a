# expect: MCPD002
"""A tool registered in a loop over a tuple of functions, with an unclassifiable parameter."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Loop")


def check(isbn: str) -> int:
    return 1


def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"


for fn in (reserve,):
    mcp.add_tool(fn)
