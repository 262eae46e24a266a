# expect: MCPD009
"""A typo in a tool annotation, postponed by `from __future__ import annotations`."""
from __future__ import annotations

from mcp.server import MCPServer

mcp = MCPServer("T3")


@mcp.tool()
def reserve(title: Sting) -> str:  # noqa: F821
    """Reserve."""
    return title
