# expect: MCPD002
"""A wraps-wrapper under a plain one: the outer wrapper's `(*args, **kwargs)` is what the SDK sees."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Stack")


def traced(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


def timed(fn):
    def timing(*args, **kwargs):
        return fn(*args, **kwargs)

    return timing


@timed
@traced
def stock(title: str) -> int:
    return 3


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
