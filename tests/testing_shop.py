"""A shop whose tools use every kind of resolver `mcpdeps.testing` replaces, counting what really ran.

`RAN` is each resolver's own side effect: the tests compare it with what the test client
reports, and check that an overridden resolver's count stays at zero.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.mcpserver import Elicit, ElicitationResult, ListRoots, Resolve, Sample
from mcp.types import CreateMessageResult, ListRootsResult, SamplingMessage, TextContent
from pydantic import BaseModel, Field

mcp = MCPServer("Shop")
RAN: Counter[str] = Counter()
INVENTORY = {"Dune": 7, "Neuromancer": 0}


class Stock(BaseModel):
    title: str
    copies: int


class Backorder(BaseModel):
    confirm: bool = Field(description="Order anyway and wait?")


async def check_stock(title: str) -> Stock:
    RAN["check_stock"] += 1
    return Stock(title=title, copies=INVENTORY.get(title, 0))


def estimate_delivery(stock: Annotated[Stock, Resolve(check_stock)]) -> str:
    RAN["estimate_delivery"] += 1
    return "tomorrow" if stock.copies > 0 else "in 2-3 weeks"


async def confirm_backorder(
    title: str, stock: Annotated[Stock, Resolve(check_stock)]
) -> Backorder | Elicit[Backorder]:
    RAN["confirm_backorder"] += 1
    if stock.copies > 0:
        return Backorder(confirm=True)
    return Elicit(f"{title!r} is out of stock (2-3 weeks). Order anyway?", Backorder)


@mcp.tool()
async def order_book(
    title: str,
    stock: Annotated[Stock, Resolve(check_stock)],
    delivery: Annotated[str, Resolve(estimate_delivery)],
    backorder: Annotated[Backorder, Resolve(confirm_backorder)],
) -> str:
    if not backorder.confirm:
        return "No order placed."
    if stock.copies == 0:
        return f"Backordered {title!r}; it would arrive {delivery}."
    return f"Ordered {title!r}; it arrives {delivery}."


@mcp.tool()
async def maybe_order(
    title: str, choice: Annotated[ElicitationResult[Backorder], Resolve(confirm_backorder)]
) -> str:
    if choice.action == "accept":
        return f"{choice.action}: confirm={choice.data.confirm}"
    return choice.action


def make_pricer(rate: float):
    """A factory: each call makes a closure with the same qualname (`make_pricer.<locals>.price`)."""

    def price(title: str) -> float:
        RAN[f"price x{rate}"] += 1
        return round(10 * rate, 2)

    return price


price_eu = make_pricer(1.0)
price_us = make_pricer(1.5)


class Ledger:
    def __init__(self, percent: int) -> None:
        self.percent = percent

    async def discount(self, title: str) -> int:
        RAN["Ledger.discount"] += 1
        return self.percent


LEDGER = Ledger(10)


class Cart:
    """A class resolver: its `__init__` parameters are tool arguments."""

    def __init__(self, title: str) -> None:
        RAN["Cart"] += 1
        self.items = [title]


@mcp.tool()
def quote(
    title: str,
    eu: Annotated[float, Resolve(price_eu)],
    us: Annotated[float, Resolve(price_us)],
    discount: Annotated[int, Resolve(LEDGER.discount)],
    cart: Annotated[Cart, Resolve(Cart)],
) -> str:
    return f"{cart.items}: {eu} EUR / {us} USD, -{discount}%"


def caller() -> str:
    token = get_access_token()
    return "anonymous" if token is None else f"{token.subject or token.client_id} {sorted(token.scopes)}"


@mcp.tool()
def whoami(who: Annotated[str, Resolve(caller)]) -> str:
    return who


def suggest_title(genre: str) -> Sample:
    prompt = f"Suggest one {genre} book title."
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=prompt))], max_tokens=20
    )


@mcp.tool()
def recommend(genre: str, suggestion: Annotated[CreateMessageResult, Resolve(suggest_title)]) -> str:
    return f"Read {suggestion.content.text}"


def client_roots() -> ListRoots:
    return ListRoots()


@mcp.tool()
def workspace(roots: Annotated[ListRootsResult, Resolve(client_roots)]) -> list[str]:
    return [str(root.uri) for root in roots.roots]


@mcp.tool()
def gift(
    title: str,
    genre: str,
    backorder: Annotated[Backorder, Resolve(confirm_backorder)],
    suggestion: Annotated[CreateMessageResult, Resolve(suggest_title)],
) -> str:
    return f"{title} (confirm={backorder.confirm}) and {suggestion.content.text}"


@mcp.tool()
async def reserve_book(title: str, stock: Annotated[Stock, Resolve(check_stock)]) -> str:
    if stock.copies == 0:
        return f"{title!r} is out of stock."
    return f"Reserved {title!r} ({stock.copies - 1} copies left)."
