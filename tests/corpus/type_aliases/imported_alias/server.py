# expect: ok
"""A type alias defined in another module and imported."""
from deps import StockDep, UserDep

from mcp.server import MCPServer

mcp = MCPServer("Bookshop")


@mcp.tool()
def reserve(title: str, user: str, stock: StockDep, who: UserDep) -> str:
    """Reserve a book."""
    return f"{who}: {stock}"
