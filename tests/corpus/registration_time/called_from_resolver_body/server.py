# expect: ok
# start: install()
"""A resolver's body that calls a registration function: on the first request (checked too)."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Resolver")


def install() -> None:
    @mcp.tool()
    def late(x: str) -> str:
        """Registered by the first call of `reserve`, never at import."""
        return x


def stock(title: str) -> int:
    install()
    return 3


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
