# expect: MCPD007
"""`Resolve(dict)`: a builtin type has no signature either."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T10")


@mcp.tool()
def settings(name: str, table: Annotated[dict[str, str], Resolve(dict)]) -> str:
    """Settings."""
    return name
