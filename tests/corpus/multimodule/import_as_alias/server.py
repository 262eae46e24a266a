# expect: ok
"""`from app.deps import check_stock as stock_of`."""
from typing import Annotated

from app.deps import check_stock as stock_of

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Pkg")


@mcp.tool()
def reserve(title: str, stock: Annotated[int, Resolve(stock_of)]) -> str:
    """Reserve a book."""
    return f"{title} {stock}"
