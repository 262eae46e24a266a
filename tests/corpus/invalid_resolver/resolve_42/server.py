# expect: MCPD007
"""`Resolve(42)`: not callable."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T10")


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(42)]) -> str:
    """Reserve."""
    return title
