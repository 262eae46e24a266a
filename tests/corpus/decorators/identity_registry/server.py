# expect: ok
"""A decorator that records the function and returns it unchanged is transparent."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Registry")
RESOLVERS: list = []


def resolver(fn):
    RESOLVERS.append(fn)
    return fn


@resolver
def stock(title: str) -> int:
    return 3


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
