# expect: MCPD009
"""A decorated tool naming itself in `Resolve(...)` (postponed annotations): the decorator
runs before the name `total` is bound, so the SDK cannot evaluate the tool's hints."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T3")


@mcp.tool()
def total(x: int, previous: Annotated[int, Resolve(total)]) -> int:
    """Add up."""
    return x + previous
