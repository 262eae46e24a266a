# expect: ok
"""`@Retry(times=3)`: an instance whose `__call__(fn)` returns a functools.wraps wrapper."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Geo")


class Retry:
    def __init__(self, times: int) -> None:
        self.times = times

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)

        return wrapper


@Retry(times=3)
def geocode(city: str) -> str:
    return city.upper()


@mcp.tool()
def locate(city: str, where: Annotated[str, Resolve(geocode)]) -> str:
    """Locate a city."""
    return where
