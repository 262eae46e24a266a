# expect: ok
"""`traced = _traced if DEBUG else _same`: chosen at run time, so mcpdeps says so (MCPD113)."""
import functools
import os

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Debug")
DEBUG = os.environ.get("APP_DEBUG") == "1"


def _traced(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


def _same(fn):
    return fn


traced = _traced if DEBUG else _same


@traced
def stock(title: str) -> int:
    return 3


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
