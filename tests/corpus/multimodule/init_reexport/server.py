# expect: ok
"""`from app import check_stock`, re-exported by `app/__init__.py` from a submodule."""
from typing import Annotated

from app import check_stock

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Pkg")


@mcp.tool()
def reserve(title: str, stock: Annotated[int, Resolve(check_stock)]) -> str:
    """Reserve a book."""
    return f"{title} {stock}"
