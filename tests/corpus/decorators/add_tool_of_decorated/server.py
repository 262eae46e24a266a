# expect: MCPD002
"""`mcp.add_tool(reserve)` of a name bound by a decorator stack: the SDK gets the whole stack's result."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Tools")


def retry(times: int):
    def decorate(fn):
        def attempt(*args, **kwargs):
            return fn(*args, **kwargs)

        return attempt

    return decorate


def traced(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


@traced
def stock(title: str) -> int:
    return 3


@retry(times=2)
def backorder(title: str) -> bool:
    return False


def reserve(title: str, n: Annotated[int, Resolve(stock)], late: Annotated[bool, Resolve(backorder)]) -> str:
    """Reserve a book."""
    return f"{title} {n} {late}"


mcp.add_tool(traced(reserve), name="reserve")
