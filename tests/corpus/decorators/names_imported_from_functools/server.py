# expect: ok
"""`from functools import lru_cache, wraps`: the same decorators under their bare names."""
from functools import lru_cache, wraps

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Names")


def logged(fn):
    @wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


@logged
@lru_cache(maxsize=8)
def rate(currency: str) -> float:
    return 1.0


@mcp.tool()
def convert(amount: float, currency: str, r: Annotated[float, Resolve(rate)]) -> float:
    """Convert."""
    return amount * r
