"""Stand-in for `examples/bookshop/server.py` used by the `call` tests until that example lands.

Same shape as the example: `order_book(title)` asks `confirm_backorder` (an `Elicit`
of `Backorder(confirm: bool)`) only when the title is out of stock.
"""

from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

mcp = MCPServer("Bookshop")

STOCK = {"Dune": 7, "Neuromancer": 0}


class Backorder(BaseModel):
    confirm: bool


async def check_stock(title: str) -> int:
    return STOCK.get(title, 0)


def confirm_backorder(
    title: str, stock: Annotated[int, Resolve(check_stock)]
) -> Elicit[Backorder] | Backorder:
    if stock > 0:
        return Backorder(confirm=True)
    return Elicit(f"{title} is out of stock. Order it anyway?", Backorder)


@mcp.tool()
async def reserve_book(title: str, stock: Annotated[int, Resolve(check_stock)]) -> str:
    return f"Reserved {title}" if stock > 0 else f"{title} is out of stock"


@mcp.tool()
async def order_book(
    title: str,
    stock: Annotated[int, Resolve(check_stock)],
    backorder: Annotated[Backorder, Resolve(confirm_backorder)],
) -> str:
    if stock > 0:
        return f"Ordered {title} ({stock} in stock)"
    return f"Backordered {title}" if backorder.confirm else f"Did not order {title}"
