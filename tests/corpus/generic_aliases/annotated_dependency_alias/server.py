# expect: ok
"""`Stock = Annotated[T, Resolve(stock)]` used as `n: Stock[int]`: a resolved parameter."""
from typing import Annotated, Optional, TypeVar, Union

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

T = TypeVar("T")
mcp = MCPServer("Alias")


def stock(title: str) -> int:
    return 3


Stock = Annotated[T, Resolve(stock)]


@mcp.tool()
def reserve(title: str, n: Stock[int]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
