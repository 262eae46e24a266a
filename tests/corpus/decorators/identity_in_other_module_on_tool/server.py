# expect: ok
"""A project decorator from another module that returns the tool function itself."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from plugins import exported

mcp = MCPServer("Plugins")


def stock(title: str) -> int:
    return 3


@mcp.tool()
@exported
def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
