# expect: ok
"""A resolver behind a library decorator mcpdeps does not know: reported (MCPD113), never guessed."""
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
