# expect: MCPD002
"""The faulty resolver lives in a package module imported with an alias."""
from typing import Annotated

import app.deps as d

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


@mcp.tool()
def reserve(title: str, stock: Annotated[int, Resolve(d.check_stock)]) -> str:
    """Reserve."""
    return title
