# expect: ok
"""A resolver parameter `Annotated[Context, ...]`: the outer Annotated is removed first."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Ctx")


def caller(ctx: Annotated[Context, "the request context"], team: str) -> str:
    return team


@mcp.tool()
def ping(team: str, who: Annotated[str, Resolve(caller)]) -> str:
    """Ping a team."""
    return who
