# expect: ok
"""`import deps` then `deps.StockDep`, whose alias itself uses `deps.check_stock` via an import alias."""
import deps

from mcp.server import MCPServer

mcp = MCPServer("Bookshop")


@mcp.tool()
def reserve(title: str, stock: deps.StockDep) -> str:
    """Reserve a book."""
    return f"{title}: {stock}"
