# expect: MCPD003
"""`Maybe = Optional[Annotated[T, Resolve(f)]]` used as `Maybe[int]`: the marker is inside a union."""
from typing import Annotated, Optional, TypeVar, Union

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

T = TypeVar("T")
mcp = MCPServer("Alias")


def stock(title: str) -> int:
    return 3


Maybe = Optional[Annotated[T, Resolve(stock)]]


@mcp.tool()
def reserve(title: str, n: Maybe[int] = None) -> str:
    """Reserve a book."""
    return f"{title} {n}"
