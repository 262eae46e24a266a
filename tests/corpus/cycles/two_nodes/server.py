# expect: MCPD001
"""check_quota -> plan_of -> check_quota."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Cycles")


def check_quota(user: str, plan: Annotated[str, Resolve(plan_of)]) -> int:
    return 1


def plan_of(quota: Annotated[int, Resolve(check_quota)]) -> str:
    return "pro"


@mcp.tool()
def upload(user: str, quota: Annotated[int, Resolve(check_quota)]) -> str:
    """Upload a file."""
    return str(quota)
