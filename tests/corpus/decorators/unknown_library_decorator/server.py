# expect: ok
"""A resolver behind `typing_extensions.deprecated`, a library wrapper mcpdeps knows keeps the
signature (`library_decorators.DEPRECATING`): the static graph is the SDK's. (This case held a
decorator mcpdeps did not know until it learnt this one.)"""
from typing import Annotated

from typing_extensions import deprecated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Lib")


@deprecated("use stock_v2")
def stock(title: str) -> int:
    return 3


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
