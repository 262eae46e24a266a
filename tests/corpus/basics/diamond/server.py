# expect: ok
"""A diamond: total depends on price and tax, both depend on the same lookup."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Pricing")

PRICES = {"Dune": 12.5}


def lookup(title: str) -> float:
    return PRICES.get(title, 0.0)


def net_price(base: Annotated[float, Resolve(lookup)], quantity: int) -> float:
    return base * quantity


def tax(base: Annotated[float, Resolve(lookup)]) -> float:
    return base * 0.2


def total(
    net: Annotated[float, Resolve(net_price)],
    vat: Annotated[float, Resolve(tax)],
) -> float:
    return net + vat


@mcp.tool()
def quote(title: str, quantity: int, amount: Annotated[float, Resolve(total)]) -> str:
    """Quote a price."""
    return f"{quantity} x {title}: {amount:.2f}"
