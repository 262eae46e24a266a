# expect: MCPD003
"""`Annotated[T, Resolve(f)] | None`."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R3")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)] | None = None) -> str:
    """Reserve."""
    return title
