# expect: MCPD002, MCPD006
"""Errors in tools registered through `deco = mcp.tool()` and `register = mcp.add_tool`."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Reuse")
deco = mcp.tool()
register = mcp.add_tool


def check(isbn: str) -> int:
    return 1


@deco
def cancel(title: str, _reason: str = "") -> str:
    """Cancel a reservation."""
    return title


def status(title: str, n: Annotated[int, Resolve(check)]) -> str:
    return str(n)


register(status, name="book_status")
