# expect: MCPD006
"""A resolved tool parameter starting with `_` is rejected too."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T2")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, _stock: Annotated[int, Resolve(check)]) -> str:
    """Reserve."""
    return title
