# expect: MCPD002
"""The decorator factory lives in another module; its wrapper has no functools.wraps."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from resilience import retry

mcp = MCPServer("Geo")


@retry(times=2)
def geocode(city: str) -> str:
    return city.upper()


@mcp.tool()
def locate(city: str, where: Annotated[str, Resolve(geocode)]) -> str:
    """Locate a city."""
    return where
