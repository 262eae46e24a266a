# expect: MCPD001, MCPD002, MCPD003, MCPD004, MCPD006, MCPD008
"""A bookshop server with six different registration errors, spread over two modules.

The SDK refuses this server at start-up, but only tells you about the first error it
meets (`mcp run` stops there). `mcpdeps lint examples/broken` reports all of them at
once, each at its line in `server.py` or `deps.py`:

- MCPD001 resolver-cycle: `plan_of` (here) -> `deps.check_quota` -> `plan_of`;
- MCPD002 unclassifiable-parameter: `deps.check_stock` takes `warehouse`, which is no
  argument of `reserve_book`;
- MCPD003 resolve-in-union: `order_book`'s `delivery` wraps `Resolve` in `| None`;
- MCPD004 multiple-questions: `deps.ask_reader` may ask the user or the client's LLM;
- MCPD006 underscore-parameter: `cancel_order(_order_id)`;
- MCPD008 bare-tool-decorator: `@mcp.tool` without parentheses on `list_books`.

`browse` is correct and is not reported.
"""

from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

import deps

mcp = MCPServer("Broken bookshop")


def plan_of(user: str, quota: Annotated[int, Resolve(deps.check_quota)]) -> str:
    return "pro" if quota > 10 else "free"


@mcp.tool()
def upload_cover(user: str, title: str, plan: Annotated[str, Resolve(plan_of)]) -> str:
    """Upload a cover picture for a title."""
    return f"{user} ({plan}) uploaded a cover for {title}"


@mcp.tool()
def reserve_book(title: str, stock: Annotated[int, Resolve(deps.check_stock)]) -> str:
    """Reserve a copy of a book."""
    return f"Reserved {title!r} ({stock} left)"


@mcp.tool()
def order_book(title: str, delivery: Annotated[str, Resolve(deps.estimate_delivery)] | None) -> str:
    """Order a book."""
    return f"Ordered {title!r}; it arrives {delivery}"


@mcp.tool()
def recommend_book(genre: str, answer: Annotated[object, Resolve(deps.ask_reader)]) -> str:
    """Recommend a book in a genre."""
    return f"Today's {genre} pick"


@mcp.tool()
def cancel_order(_order_id: str) -> str:
    """Cancel an order."""
    return "cancelled"


@mcp.tool
def list_books() -> list[str]:
    """List the books in the shop."""
    return sorted(deps.INVENTORY)


@mcp.tool()
def browse(genre: str, shelf: Annotated[str, Resolve(deps.shelf_of)]) -> str:
    """Browse a shelf."""
    return f"{genre} books are on {shelf}"


if __name__ == "__main__":
    mcp.run()
