# expect: MCPD002
"""`Resolve(len)`: len has a signature `(obj, /)`, and `obj` is no tool argument."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


@mcp.tool()
def size(title: str, n: Annotated[int, Resolve(len)]) -> int:
    """Size of a title."""
    return n
