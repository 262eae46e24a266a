# expect: MCPD002
"""A partial binding by keyword keeps the parameter in the signature: it must still be classified."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def count_in(title: str, table: dict[str, int]) -> int:
    return table.get(title, 0)


@mcp.tool()
def copies(title: str, n: Annotated[int, Resolve(functools.partial(count_in, table={"Dune": 1}))]) -> int:
    """Copies."""
    return n
