# expect: ok
"""`@mcp.tool(name=..., title=..., description=...)`."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Reg")


def check(title: str) -> int:
    return 1


@mcp.tool(name="book.reserve", title="Reserve", description="Reserve a book.")
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    return f"{title} {n}"


@mcp.tool(name="book-count", structured_output=False)
def count(title: str, n: Annotated[int, Resolve(check)]) -> int:
    return n
