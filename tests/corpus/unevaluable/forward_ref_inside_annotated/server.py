# expect: MCPD009
"""`Annotated["Stock", Resolve(check)]` with `Stock` defined after the tool is registered:
the SDK cannot evaluate the tool's hints, keeps `stock` as an argument, and pydantic
refuses the arguments model (`reserveArguments` is not fully defined)."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T3")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, stock: Annotated["Stock", Resolve(check)]) -> str:
    """Reserve a book."""
    return title


class Stock:
    copies: int = 0
