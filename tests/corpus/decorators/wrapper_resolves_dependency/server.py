# expect: ok
"""The wrapper itself declares a Resolve parameter: the chain goes through the wrapper."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Chain")


def warehouse(title: str) -> str:
    return "main"


def per_warehouse(fn):
    def wrapper(title: str, where: Annotated[str, Resolve(warehouse)]) -> int:
        return fn(title, where)

    return wrapper


@per_warehouse
def stock(title: str, where: str) -> int:
    return 3


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
