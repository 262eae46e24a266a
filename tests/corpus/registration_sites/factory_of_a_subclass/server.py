# expect: MCPD006
# start: shop = make_shop()
"""A factory building an instance of a project subclass of MCPServer."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


class ShopServer(MCPServer):
    """A server with the shop's defaults."""


def price(title: str) -> float:
    return 9.5


def make_shop():
    shop = ShopServer("Shop")

    @shop.tool()
    def quote(title: str, amount: Annotated[float, Resolve(price)]) -> str:
        """Quote a price."""
        return f"{title}: {amount}"

    @shop.tool()
    def discount(title: str, _code: str) -> str:
        """An underscore parameter: T2 at start-up."""
        return title

    return shop
