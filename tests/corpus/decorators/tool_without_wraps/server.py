# expect: ok
"""A tool behind a wrapper without wraps registers as `wrapper`, with the wrapper's parameters."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Tools")


def stock(title: str) -> int:
    return 3


def logged(fn):
    def wrapper(title: str, copies: int = 1) -> str:
        return fn(title, copies, 0)

    return wrapper


@mcp.tool()
@logged
def reserve(title: str, copies: int, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
