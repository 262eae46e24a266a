# expect: ok
"""Eager annotations: the same decorator-local import is evaluated when the wrapper is defined."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Local")


def with_context(fn):
    from mcp.server.mcpserver import Context as LocalContext

    def wrapper(ctx: LocalContext, title: str) -> int:
        return fn(title)

    return wrapper


@with_context
def stock(title: str) -> int:
    return 3


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
