# expect: ok
"""`Ctx = Context`: a plain alias of the Context class."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Ctx")
Ctx = Context


def caller(ctx: Ctx, team: str) -> str:
    return team


@mcp.tool()
def ping(team: str, ctx: Ctx, who: Annotated[str, Resolve(caller)]) -> str:
    """Ping a team."""
    return who
