# expect: MCPD001
"""The tool's resolver is not on the cycle; two resolvers below it are (b -> c -> b)."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Cycles")


def root(v: Annotated[int, Resolve(b)]) -> int:
    return v


def b(x: int, v: Annotated[int, Resolve(c)]) -> int:
    return v


def c(v: Annotated[int, Resolve(b)]) -> int:
    return v


@mcp.tool()
def run(x: int, value: Annotated[int, Resolve(root)]) -> int:
    """Run."""
    return value
