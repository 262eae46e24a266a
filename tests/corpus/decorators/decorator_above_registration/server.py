# expect: ok
"""A decorator above `@mcp.tool()` wraps what `tool()` returns: the registered function is the plain one."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Tools")


def stock(title: str) -> int:
    return 3


def logged(fn):
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


@logged
@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
