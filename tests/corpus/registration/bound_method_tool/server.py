# expect: ok
"""A bound method registered as a tool: `self` is not a parameter of the bound method."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Methods")


def check(title: str) -> int:
    return 1


class Shop:
    def reserve(self, title: str, n: Annotated[int, Resolve(check)]) -> str:
        """Reserve a book."""
        return f"{title} {n}"

    @staticmethod
    def ping(message: str) -> str:
        """Echo."""
        return message


shop = Shop()
mcp.add_tool(shop.reserve)
mcp.add_tool(Shop.ping, name="shop_ping")
