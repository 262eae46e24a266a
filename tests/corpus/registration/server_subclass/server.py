# expect: ok
"""Tools registered on an instance of an MCPServer subclass."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve



class ShopServer(MCPServer):
    """A server with shop defaults."""


shop = ShopServer("Shop")


def check(title: str) -> int:
    return 1


@shop.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
