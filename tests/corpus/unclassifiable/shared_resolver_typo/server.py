# expect: MCPD002
"""One misspelt parameter of a resolver two tools share: the SDK refuses both tools; lint says it once,
for both (the second tool in `related`)."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def stock_of(titel: str) -> int:
    return len(titel)


@mcp.tool()
def order_book(title: str, stock: Annotated[int, Resolve(stock_of)]) -> str:
    """Order."""
    return f"{title}: {stock}"


@mcp.tool()
def reserve_book(title: str, stock: Annotated[int, Resolve(stock_of)]) -> str:
    """Reserve."""
    return f"{title}: {stock}"
