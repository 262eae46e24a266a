# expect: ok
"""A resolver parameter annotated with a type alias of a Resolve."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Bookshop")


def check_stock(title: str) -> int:
    return 1


StockDep = Annotated[int, Resolve(check_stock)]


def delivery(stock: StockDep) -> str:
    return "tomorrow" if stock else "later"


@mcp.tool()
def order(title: str, when: Annotated[str, Resolve(delivery)]) -> str:
    """Order a book."""
    return when
