# expect: ok
"""`StockDep: TypeAlias = Annotated[...]`."""
from typing import Annotated, TypeAlias

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Bookshop")


def check_stock(title: str) -> int:
    return 1


StockDep: TypeAlias = Annotated[int, Resolve(check_stock)]


@mcp.tool()
def reserve(title: str, stock: StockDep) -> str:
    """Reserve a book."""
    return f"{title}: {stock}"
