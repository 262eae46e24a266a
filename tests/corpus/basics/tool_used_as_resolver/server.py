# expect: ok
"""A tool function also serves as the resolver of another tool."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Reuse")


@mcp.tool()
def price(title: str) -> float:
    """The price of a book."""
    return 12.5


@mcp.tool()
def quote(title: str, quantity: int, unit: Annotated[float, Resolve(price)]) -> str:
    """Quote a price."""
    return f"{quantity * unit:.2f}"
