# expect: MCPD002
"""The resolver's module (postponed annotations) names `Stock`, which only the tool's module
imports: hints are evaluated in the resolver's own module, so they fail, and its Context
parameter is unclassifiable."""
from typing import Annotated

from deps import load_stock
from models import Stock

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


@mcp.tool()
def reserve(title: str, stock: Annotated[Stock, Resolve(load_stock)]) -> str:
    """Reserve a book."""
    return title
