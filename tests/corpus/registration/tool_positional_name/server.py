# expect: ok
"""`@mcp.tool("name")`: the first positional argument of tool() is the name."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Reg")


def check(title: str) -> int:
    return 1


@mcp.tool("reserve_book")
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
