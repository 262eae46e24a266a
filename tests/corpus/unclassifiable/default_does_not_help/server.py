# expect: MCPD002
"""A resolver parameter with a default value is still unclassifiable."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def page(query: str, limit: int = 10) -> list[str]:
    return [query] * limit


@mcp.tool()
def search(query: str, results: Annotated[list[str], Resolve(page)]) -> int:
    """Search."""
    return len(results)
