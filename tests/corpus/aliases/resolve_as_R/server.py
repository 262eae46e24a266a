# expect: ok
"""`from mcp.server.mcpserver import Resolve as R, Context as C`."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context as C
from mcp.server.mcpserver import Resolve as R

mcp = MCPServer("Alias")


def check(title: str, ctx: C) -> int:
    return len(title)


@mcp.tool()
def size(title: str, n: Annotated[int, R(check)]) -> int:
    """Size of a title."""
    return n
