# expect: ok
"""A resolver reads a tool argument that has a default value (still a tool argument)."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Search")


def page_size(limit: int, strict: bool) -> int:
    return min(limit, 50) if strict else limit


@mcp.tool()
def search(
    query: str,
    size: Annotated[int, Resolve(page_size)],
    limit: int = 20,
    strict: bool = False,
) -> list[str]:
    """Search."""
    return [query] * size
