# expect: ok
"""Tools registered in a loop over a tuple of functions."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Loop")


def check(title: str) -> int:
    return 1


def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"


def cancel(title: str, reason: str) -> str:
    """Cancel a reservation."""
    return reason


for fn in (reserve, cancel):
    mcp.add_tool(fn)
