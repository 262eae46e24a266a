# expect: MCPD003
"""A type alias of a Resolve, made optional: `StockDep | None`."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R3")


def check(title: str) -> int:
    return 1


StockDep = Annotated[int, Resolve(check)]


@mcp.tool()
def reserve(title: str, stock: StockDep | None) -> str:
    """Reserve."""
    return title
