# expect: MCPD002
"""A resolver parameter that matches no tool argument."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def check_stock(isbn: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, stock: Annotated[int, Resolve(check_stock)]) -> str:
    """Reserve a book."""
    return title
