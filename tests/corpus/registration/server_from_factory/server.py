# expect: MCPD006
"""`mcp = make_server()` where the factory returns an MCPServer; tools are registered on it
at module level (one fine, one with an `_` parameter)."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve



def make_server() -> MCPServer:
    return MCPServer("Factory", instructions="A shop.")


mcp = make_server()


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"


@mcp.tool()
def purge(title: str, _force: bool = False) -> str:
    """Purge a title."""
    return title
