# expect: ok
"""A Resolve marker stored in a variable, then used inside Annotated."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Marker")


def check(title: str) -> int:
    return 1


BY_STOCK = Resolve(check)


@mcp.tool()
def reserve(title: str, n: Annotated[int, BY_STOCK]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
