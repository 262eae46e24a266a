# expect: MCPD002
"""An unclassifiable parameter on a tool of an MCPServer subclass instance."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve



class ShopServer(MCPServer):
    """A server with shop defaults."""


shop = ShopServer("Shop")


def check(isbn: str) -> int:
    return 1


@shop.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
