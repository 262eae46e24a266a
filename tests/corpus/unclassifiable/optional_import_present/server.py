# expect: MCPD002
"""The same pattern where `fastdeps` exists: its `check` is used, and it takes `isbn`."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

try:
    from fastdeps import check
except ImportError:

    def check(title: str) -> int:
        return 1


mcp = MCPServer("Fallback")


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
