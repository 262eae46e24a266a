# expect: MCPD002
"""A resolver from a module with no marker at all: walking the folder does not parse it as a
file of its own (its words only contain the markers), yet following the import does."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from quotas import quota_left

mcp = MCPServer("Markerless")


@mcp.tool()
def fetch(user: str, url: str, left: Annotated[int, Resolve(quota_left)]) -> str:
    """Fetch."""
    return url
