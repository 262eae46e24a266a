# expect: ok
"""A Context subclass is recognised as Context, in tools and in resolvers."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Ctx")


class ShopContext(Context):
    """A project-specific Context with helpers."""


def shop_of(ctx: ShopContext, shop: str) -> str:
    return shop


@mcp.tool()
def open_shop(shop: str, ctx: ShopContext, name: Annotated[str, Resolve(shop_of)]) -> str:
    """Open a shop."""
    return name
