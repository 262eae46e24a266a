from typing import Annotated

from mcp.server.mcpserver import Resolve

from .models import Stock


def check_stock(title: str) -> Stock:
    return Stock(title, 1)


def delivery(stock: Annotated[Stock, Resolve(check_stock)]) -> str:
    return "soon" if stock.copies else "later"
