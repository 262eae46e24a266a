# expect: MCPD001
"""A two-node cycle written with quoted annotations, no __future__ import."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Cycles")


def ping(x: int, v: "Annotated[int, Resolve(pong)]") -> int:
    return v


def pong(v: "Annotated[int, Resolve(ping)]") -> int:
    return v


@mcp.tool()
def run(x: int, value: Annotated[int, Resolve(ping)]) -> int:
    """Run."""
    return value
