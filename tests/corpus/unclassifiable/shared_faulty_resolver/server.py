# expect: MCPD002
"""One faulty resolver shared by two tools: both tools fail to register."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def plan_of(account: str) -> str:
    return "pro"


@mcp.tool()
def upload(user: str, plan: Annotated[str, Resolve(plan_of)]) -> str:
    """Upload."""
    return plan


@mcp.tool()
def download(user: str, name: str, plan: Annotated[str, Resolve(plan_of)]) -> str:
    """Download."""
    return plan
