# expect: MCPD007
"""`Resolve(None)` one level below the tool."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T10")


def outer(v: Annotated[int, Resolve(None)]) -> int:
    return v


@mcp.tool()
def run(x: int, value: Annotated[int, Resolve(outer)]) -> int:
    """Run."""
    return value
