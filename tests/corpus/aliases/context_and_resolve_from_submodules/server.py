# expect: ok
"""Context and Resolve imported from the modules that define them."""
from typing import Annotated

from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.resolve import Resolve
from mcp.server.mcpserver.server import MCPServer

mcp = MCPServer("Submodules")


def caller(ctx: Context, team: str) -> str:
    return team


@mcp.tool()
def ping(team: str, ctx: Context, who: Annotated[str, Resolve(caller)]) -> str:
    """Ping a team."""
    return who
