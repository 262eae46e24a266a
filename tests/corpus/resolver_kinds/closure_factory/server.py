# expect: ok
"""Closures from one factory: two distinct resolvers with the same qualname."""
from collections.abc import Callable
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Tables")


def make_lookup(table: dict[str, int]) -> Callable[[str], int]:
    def lookup(key: str) -> int:
        return table.get(key, 0)

    return lookup


stock_of = make_lookup({"Dune": 7})
price_of = make_lookup({"Dune": 12})


@mcp.tool()
def info(key: str, stock: Annotated[int, Resolve(stock_of)], price: Annotated[int, Resolve(price_of)]) -> str:
    """Stock and price of an item."""
    return f"{stock} @ {price}"
