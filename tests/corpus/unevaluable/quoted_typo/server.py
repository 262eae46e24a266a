# expect: MCPD009
"""A quoted annotation naming something undefined, without the __future__ import."""
from mcp.server import MCPServer

mcp = MCPServer("T3")


@mcp.tool()
def reserve(title: "Titel") -> str:  # noqa: F821
    """Reserve."""
    return str(title)
