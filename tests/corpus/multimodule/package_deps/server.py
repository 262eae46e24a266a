# expect: ok
"""`from app.deps import check_stock` from a package."""
from typing import Annotated

from app.deps import check_stock
from app.models import Stock

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Pkg")


@mcp.tool()
async def reserve(title: str, stock: Annotated[Stock, Resolve(check_stock)]) -> str:
    """Reserve a book."""
    return stock.title
