# expect: MCPD007
"""`Resolve("check")`: a string naming the resolver is not the resolver."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T10")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve("check")]) -> str:
    """Reserve."""
    return title
