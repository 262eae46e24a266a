# expect: ok
"""A NamedTuple class as resolver: its fields are its parameters."""
from typing import NamedTuple

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Geo")


class Point(NamedTuple):
    lat: float
    lon: float


@mcp.tool()
def locate(lat: float, lon: float, p: Annotated[Point, Resolve(Point)]) -> str:
    """Locate a point."""
    return f"{p.lat},{p.lon}"
