# expect: MCPD002
"""A lambda resolver with a defaulted parameter that is no tool argument."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


@mcp.tool()
def repeat(text: str, out: Annotated[str, Resolve(lambda text, times=2: text * times)]) -> str:
    """Repeat a text."""
    return out
