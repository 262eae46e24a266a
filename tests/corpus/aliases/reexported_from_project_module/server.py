# expect: ok
"""Resolve, Context and MCPServer re-exported by a project module."""
from typing import Annotated

from app.markers import Context, MCPServer, Resolve

mcp = MCPServer("Reexport")


def caller(ctx: Context, team: str) -> str:
    return team


@mcp.tool()
def ping(team: str, who: Annotated[str, Resolve(caller)]) -> str:
    """Ping a team."""
    return who
