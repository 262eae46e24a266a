# expect: MCPD002
"""A class resolver whose __init__ asks for `Annotated[..., Resolve(f)]`: the SDK reads no hints
for a class, so the parameter is classified by name only, and `rate` is no tool argument."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def exchange_rate(currency: str) -> float:
    return 1.0


class Price:
    def __init__(self, amount: float, rate: Annotated[float, Resolve(exchange_rate)]) -> None:
        self.value = amount * rate


@mcp.tool()
def price(amount: float, currency: str, p: Annotated[Price, Resolve(Price)]) -> float:
    """A price."""
    return p.value
