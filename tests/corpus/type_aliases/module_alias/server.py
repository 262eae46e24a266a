# expect: ok
"""`StockDep = Annotated[Stock, Resolve(check_stock)]` used by two tools."""
from typing import Annotated

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Bookshop")


class Stock(BaseModel):
    title: str
    copies: int


def check_stock(title: str) -> Stock:
    return Stock(title=title, copies=1)


StockDep = Annotated[Stock, Resolve(check_stock)]


@mcp.tool()
def reserve(title: str, stock: StockDep) -> str:
    """Reserve a book."""
    return stock.title


@mcp.tool()
def available(title: str, stock: StockDep) -> bool:
    """Is a book available."""
    return stock.copies > 0
