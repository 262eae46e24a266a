# expect: ok
"""`try: from fastdeps import check / except ImportError: def check(...)`: `fastdeps` does
not exist, so the fallback defines the resolver."""

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
