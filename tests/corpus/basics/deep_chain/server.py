# expect: ok
"""A four-level chain of resolvers; only the first reads a tool argument."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Chain")


def level1(seed: int) -> int:
    return seed + 1


def level2(v: Annotated[int, Resolve(level1)]) -> int:
    return v * 2


async def level3(v: Annotated[int, Resolve(level2)]) -> int:
    return v - 3


def level4(v: Annotated[int, Resolve(level3)], w: Annotated[int, Resolve(level1)]) -> int:
    return v + w


@mcp.tool()
def compute(seed: int, result: Annotated[int, Resolve(level4)]) -> int:
    """Compute something."""
    return result
