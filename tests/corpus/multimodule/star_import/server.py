# expect: ok
"""Resolvers brought in by `from deps import *` (the module defines `__all__`)."""
from typing import Annotated

from deps import *  # noqa: F403

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Star")


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check_stock)]) -> str:  # noqa: F405
    """Reserve a book."""
    return f"{title} {n}"
