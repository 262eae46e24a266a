# expect: MCPD001
"""A resolver depending on itself (postponed annotations make it writable)."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Cycles")


def check_quota(user: str, again: Annotated[int, Resolve(check_quota)]) -> int:
    return again


@mcp.tool()
def upload(user: str, quota: Annotated[int, Resolve(check_quota)]) -> str:
    """Upload a file."""
    return str(quota)
