# expect: MCPD002
"""A resolver reading `user` serves a tool that has it and one that does not: only the second fails."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def plan_of(user: str) -> str:
    return "pro"


@mcp.tool()
def upload(user: str, plan: Annotated[str, Resolve(plan_of)]) -> str:
    """Upload."""
    return plan


@mcp.tool()
def stats(team: str, plan: Annotated[str, Resolve(plan_of)]) -> str:
    """Stats."""
    return plan
