# expect: ok
"""The partial's keyword-bound `unit` is matched by name to a tool argument: accepted, id functools:partial."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Geo")


def in_km(fn):
    return functools.partial(fn, unit="km")


@in_km
def distance(city: str, unit: str) -> float:
    return 12.0


@mcp.tool()
def far(city: str, unit: str, d: Annotated[float, Resolve(distance)]) -> str:
    """How far is it."""
    return f"{d} {unit}"
