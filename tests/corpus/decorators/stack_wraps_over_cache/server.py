# expect: ok
"""`@traced @functools.lru_cache(maxsize=None)`: both keep `__wrapped__`; the signature is `(currency)`."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Rates")


def traced(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


@traced
@functools.lru_cache(maxsize=None)
def rate(currency: str) -> float:
    return 1.1 if currency == "USD" else 1.0


@mcp.tool()
def convert(amount: float, currency: str, r: Annotated[float, Resolve(rate)]) -> float:
    """Convert an amount."""
    return amount * r
