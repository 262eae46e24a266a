# expect: MCPD001
"""A cycle across two modules of a package that import each other."""
from typing import Annotated

from app.quota import check_quota

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Cycles")


@mcp.tool()
def upload(user: str, quota: Annotated[int, Resolve(check_quota)]) -> str:
    """Upload a file."""
    return str(quota)
