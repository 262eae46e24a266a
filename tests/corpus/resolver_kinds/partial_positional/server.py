# expect: ok
"""functools.partial with positionally bound arguments; the rest are tool arguments."""
import functools
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Stock")

INVENTORY = {"Dune": 7}


def count_in(table: dict[str, int], title: str) -> int:
    return table.get(title, 0)


count = functools.partial(count_in, INVENTORY)


@mcp.tool()
def copies(
    title: str,
    n: Annotated[int, Resolve(count)],
    again: Annotated[int, Resolve(functools.partial(count_in, {"Dune": 1}))],
) -> int:
    """How many copies."""
    return n + again
