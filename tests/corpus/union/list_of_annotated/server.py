# expect: MCPD003
"""`list[Annotated[T, Resolve(f)]]`: any nesting counts."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R3")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, ns: list[Annotated[int, Resolve(check)]]) -> str:
    """Reserve."""
    return title
