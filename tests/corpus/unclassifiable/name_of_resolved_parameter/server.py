# expect: MCPD002
"""A resolver parameter named after a *resolved* tool parameter: not a tool argument."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def check_stock(title: str) -> int:
    return 1


def delivery(stock: int) -> str:
    return "soon"


@mcp.tool()
def order(
    title: str,
    stock: Annotated[int, Resolve(check_stock)],
    when: Annotated[str, Resolve(delivery)],
) -> str:
    """Order a book."""
    return when
