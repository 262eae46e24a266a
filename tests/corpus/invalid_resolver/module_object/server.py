# expect: MCPD007
"""`Resolve(os)`: a module is not callable."""
import os

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T10")


@mcp.tool()
def cwd(x: int, env: Annotated[str, Resolve(os)]) -> str:
    """Current folder."""
    return env
