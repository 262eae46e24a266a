# expect: ok
"""The bookshop of the SDK's "Dependencies" page, in one server.

Every pattern of that page is here, so `mcpdeps lint`, `mcpdeps graph` and the SDK
oracle test all exercise it: a resolver matched to a tool argument by name
(`check_stock`), a resolver with its own dependency (`estimate_delivery`), one resolver
shared by two tools and by another resolver, a question to the user (`confirm_backorder`
returns `Elicit` only when the book is out of stock) and a question to the client's LLM
(`suggest_title` returns `Sample`).

Run it with `mcpdeps serve examples/bookshop/server.py` or `mcp run examples/bookshop/server.py`.
"""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve, Sample
from mcp.types import CreateMessageResult, SamplingMessage, TextContent
from pydantic import BaseModel, Field

mcp = MCPServer("Bookshop")

INVENTORY = {"Dune": 7, "Neuromancer": 0}


class Stock(BaseModel):
    """What the shop holds of one title."""

    title: str
    copies: int


class Backorder(BaseModel):
    """The user's answer when a book must be backordered."""

    confirm: bool = Field(description="Order anyway and wait?")


async def check_stock(title: str) -> Stock:
    """Look the title up in the inventory (the model never gets to make up a stock level)."""
    return Stock(title=title, copies=INVENTORY.get(title, 0))


async def estimate_delivery(stock: Annotated[Stock, Resolve(check_stock)]) -> str:
    """Delivery estimate, derived from the stock the tool also receives."""
    return "tomorrow" if stock.copies > 0 else "in 2-3 weeks"


async def confirm_backorder(
    title: str,
    stock: Annotated[Stock, Resolve(check_stock)],
) -> Backorder | Elicit[Backorder]:
    """Ask the user only when the answer matters: the book is out of stock."""
    if stock.copies > 0:
        return Backorder(confirm=True)
    return Elicit(f"{title!r} is out of stock (2-3 weeks). Order anyway?", Backorder)


def suggest_title(genre: str) -> Sample:
    """Ask the client's LLM for a title; the prompt depends only on the tool argument."""
    prompt = f"Suggest one {genre} book title. Answer with the title only."
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=prompt))],
        max_tokens=50,
    )


@mcp.tool()
async def reserve_book(title: str, stock: Annotated[Stock, Resolve(check_stock)]) -> str:
    """Reserve a copy of a book."""
    if stock.copies == 0:
        return f"{title!r} is out of stock."
    return f"Reserved {title!r} ({stock.copies - 1} copies left)."


@mcp.tool()
async def order_book(
    title: str,
    stock: Annotated[Stock, Resolve(check_stock)],
    delivery: Annotated[str, Resolve(estimate_delivery)],
    backorder: Annotated[Backorder, Resolve(confirm_backorder)],
) -> str:
    """Order a book from the shop."""
    if not backorder.confirm:
        return "No order placed."
    if stock.copies == 0:
        return f"Backordered {title!r}; it would arrive {delivery}."
    return f"Ordered {title!r}; it arrives {delivery}."


@mcp.tool()
async def recommend_book(
    genre: str,
    suggestion: Annotated[CreateMessageResult, Resolve(suggest_title)],
) -> str:
    """Recommend a book in the given genre."""
    title = suggestion.content.text if suggestion.content.type == "text" else "the classics"
    return f"Today's {genre} pick: {title}"


if __name__ == "__main__":
    mcp.run()
