# expect: ok
"""Resolved parameters interleaved with arguments: the schema keeps signature order."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Order")


def rate(currency: str) -> float:
    return 1.1 if currency == "USD" else 1.0


def fee(amount: float) -> float:
    return amount * 0.01


@mcp.tool()
def convert(
    amount: float,
    r: Annotated[float, Resolve(rate)],
    currency: str,
    f: Annotated[float, Resolve(fee)],
    rounding: int = 2,
) -> float:
    """Convert an amount."""
    return round(amount * r - f, rounding)
