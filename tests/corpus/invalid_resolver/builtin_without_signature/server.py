# expect: MCPD007
"""`Resolve(max)`: a builtin without a signature."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T10")


@mcp.tool()
def biggest(values: list[int], top: Annotated[int, Resolve(max)]) -> int:
    """Biggest value."""
    return top
