# expect: ok
"""A resolver picked from a dict: the SDK accepts it; a static reader cannot see into it."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Opaque")

HANDLERS = {"stock": lambda title: len(title)}


@mcp.tool()
def copies(title: str, n: Annotated[int, Resolve(HANDLERS["stock"])]) -> int:
    """Copies of a title."""
    return n
