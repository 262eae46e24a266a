# expect: ok
"""A wrapper without wraps but with explicit parameters: those are what the SDK classifies."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Own")


def normalised(fn):
    def wrapper(title: str) -> int:
        return fn(title.strip(), "main")

    return wrapper


@normalised
def stock(title: str, warehouse: str) -> int:
    return 3


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
