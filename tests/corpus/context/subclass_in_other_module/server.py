# expect: ok
"""A Context subclass defined in another module of a package."""
from typing import Annotated

from app.ctx import ShopContext

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Ctx")


def shop_of(ctx: ShopContext, shop: str) -> str:
    return shop


@mcp.tool()
def open_shop(shop: str, ctx: ShopContext, name: Annotated[str, Resolve(shop_of)]) -> str:
    """Open a shop."""
    return name
