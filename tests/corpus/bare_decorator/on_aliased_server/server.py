# expect: MCPD008
"""A bare decorator on a second server reached through an alias."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Broken")

admin = MCPServer("Admin")
tools = admin


@mcp.tool()
def fine(name: str) -> str:
    """Fine."""
    return name


@tools.tool
async def wipe(name: str) -> str:
    """Wipe."""
    return name
