# expect: MCPD002
"""Hints are not read through functools.partial: the wrapped function's Context parameter fails."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Broken")


def scaled(factor: int, amount: int, ctx: Context) -> int:
    return factor * amount


@mcp.tool()
def triple(amount: int, v: Annotated[int, Resolve(functools.partial(scaled, 3))]) -> int:
    """Triple an amount."""
    return v
