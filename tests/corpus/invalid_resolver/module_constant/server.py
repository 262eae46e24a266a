# expect: MCPD007
"""`Resolve(LIMIT)` where LIMIT is a module-level number in another module."""
from typing import Annotated

from settings import LIMIT

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T10")


@mcp.tool()
def run(x: int, limit: Annotated[int, Resolve(LIMIT)]) -> int:
    """Run."""
    return limit
