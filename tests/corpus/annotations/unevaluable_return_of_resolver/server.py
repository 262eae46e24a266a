# expect: ok
"""A resolver whose hints cannot be evaluated, but whose parameters are all tool arguments:
the SDK sees no hints, matches every parameter by name, and accepts it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

if TYPE_CHECKING:
    from decimal import Decimal

mcp = MCPServer("Typing")


def price(title: str, quantity: int) -> Decimal:
    return 12.5 * quantity  # type: ignore[return-value]  # the annotation is never evaluated


@mcp.tool()
def quote(title: str, quantity: int, amount: Annotated[float, Resolve(price)]) -> str:
    """Quote a price."""
    return str(amount)
