# expect: ok
"""`Resolve(fn=check)`: the marker built with a keyword argument."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Kw")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(fn=check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
