# expect: ok
"""`Annotated` from typing_extensions."""
from typing_extensions import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Alias")


def check(title: str) -> int:
    return len(title)


@mcp.tool()
def size(title: str, n: Annotated[int, Resolve(check)]) -> int:
    """Size of a title."""
    return n
