# expect: ok
"""A resolver re-bound under another name in a middle module, used as `mid.check`."""
from typing import Annotated

import mid

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Rebound")


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(mid.check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
