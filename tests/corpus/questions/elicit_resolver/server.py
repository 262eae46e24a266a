# expect: ok
"""The seed's confirm_backorder: a resolver returning `Backorder | Elicit[Backorder]`."""
from typing import Annotated

from pydantic import BaseModel, Field

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve

mcp = MCPServer("Bookshop")

INVENTORY = {"Dune": 7, "Neuromancer": 0}


class Backorder(BaseModel):
    confirm: bool = Field(description="Order anyway and wait?")


def check_stock(title: str) -> int:
    return INVENTORY.get(title, 0)


async def confirm_backorder(title: str, copies: Annotated[int, Resolve(check_stock)]) -> Backorder | Elicit[Backorder]:
    if copies > 0:
        return Backorder(confirm=True)
    return Elicit(f"{title!r} is out of stock (2-3 weeks). Order anyway?", Backorder)


@mcp.tool()
async def order_book(title: str, backorder: Annotated[Backorder, Resolve(confirm_backorder)]) -> str:
    """Order a book."""
    return "ordered" if backorder.confirm else "no order"
