# expect: ok
"""A decorator that returns another module-level function: the name now means that function."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Swap")


def fallback_stock(title: str) -> int:
    return 0


def disabled(fn):
    return fallback_stock


@disabled
def stock(title: str, warehouse: str) -> int:
    return 3


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
