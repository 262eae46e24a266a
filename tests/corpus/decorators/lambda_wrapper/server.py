# expect: ok
"""A decorator returning a lambda: the resolver is `lower.<locals>.<lambda>`, by name only."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Lambda")


def lower(fn):
    return lambda city: fn(city).lower()


@lower
def geocode(city: str) -> str:
    return city


@mcp.tool()
def locate(city: str, where: Annotated[str, Resolve(geocode)]) -> str:
    """Locate a city."""
    return where
