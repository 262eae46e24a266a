# expect: ok
"""A tool behind functools.wraps keeps its name, its arguments and its resolved parameter."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Tools")


def stock(title: str) -> int:
    return 3


def logged(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


@mcp.tool()
@logged
def reserve(title: str, copies: int, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
