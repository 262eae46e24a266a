# expect: MCPD002
"""A lambda resolver whose parameter is no tool argument."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


@mcp.tool()
def shout(text: str, loud: Annotated[str, Resolve(lambda message: message.upper())]) -> str:
    """Shout."""
    return loud
