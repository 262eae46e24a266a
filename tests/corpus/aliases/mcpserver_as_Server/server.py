# expect: ok
"""`from mcp.server import MCPServer as Server`; the server variable is `server`."""
from typing import Annotated

from mcp.server import MCPServer as Server
from mcp.server.mcpserver import Resolve

server = Server("Alias")


def check(title: str) -> int:
    return len(title)


@server.tool()
def size(title: str, n: Annotated[int, Resolve(check)]) -> int:
    """Size of a title."""
    return n
