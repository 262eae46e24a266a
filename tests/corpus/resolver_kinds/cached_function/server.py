# expect: ok
"""A resolver wrapped by `functools.cache`: signature and hints are read through `__wrapped__`."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Cache")


@functools.cache
def rates(currency: str) -> float:
    return 1.1 if currency == "USD" else 1.0


@mcp.tool()
def convert(amount: float, currency: str, rate: Annotated[float, Resolve(rates)]) -> float:
    """Convert an amount."""
    return amount * rate
