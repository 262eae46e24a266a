# expect: MCPD002
"""The same namespace package, with an unclassifiable resolver parameter."""
from typing import Annotated

from app.deps import check_stock

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Namespace")


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check_stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
