# expect: ok
"""`from typing import Annotated as A`."""
from typing import Annotated as A

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Alias")


def check(title: str) -> int:
    return len(title)


@mcp.tool()
def size(title: str, n: A[int, Resolve(check)]) -> int:
    """Size of a title."""
    return n
