# expect: MCPD002
"""A resolver that names the decorated tool (postponed annotations): while the decorator runs
the name `total` is not bound yet, so the resolver's hints cannot be evaluated and its
parameter `v` is unclassifiable (not a cycle)."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def previous(v: Annotated[int, Resolve(total)]) -> int:
    return v


@mcp.tool()
def total(x: int, p: Annotated[int, Resolve(previous)]) -> int:
    """Add up."""
    return x + p
