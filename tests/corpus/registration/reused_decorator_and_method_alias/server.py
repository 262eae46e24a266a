# expect: ok
"""`deco = mcp.tool()` applied to two functions, and `register = mcp.add_tool` called."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Reuse")
deco = mcp.tool()
register = mcp.add_tool


def check(title: str) -> int:
    return 1


@deco
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"


@deco
def cancel(title: str, reason: str) -> str:
    """Cancel a reservation."""
    return reason


def status(title: str, n: Annotated[int, Resolve(check)]) -> str:
    return str(n)


register(status, name="book_status")
