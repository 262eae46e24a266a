# expect: MCPD001
"""a -> b -> c -> a."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Cycles")


def a(x: int, v: Annotated[int, Resolve(b)]) -> int:
    return v


def b(v: Annotated[int, Resolve(c)]) -> int:
    return v


async def c(v: Annotated[int, Resolve(a)]) -> int:
    return v


@mcp.tool()
def run(x: int, value: Annotated[int, Resolve(a)]) -> int:
    """Run."""
    return value
