# expect: ok
"""`geocode = traced(_geocode)` with functools.wraps: the SDK names it `_geocode` (copied names)."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Geo")


def traced(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


def _geocode(city: str) -> str:
    return city.upper()


geocode = traced(_geocode)


@mcp.tool()
def locate(city: str, where: Annotated[str, Resolve(geocode)]) -> str:
    """Locate a city."""
    return where
