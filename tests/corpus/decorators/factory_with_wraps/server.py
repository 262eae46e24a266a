# expect: ok
"""The same factory with functools.wraps: the SDK follows `__wrapped__` to `(city)`."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Geo")


def retry(times: int):
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)

        return wrapper

    return decorate


@retry(times=3)
def geocode(city: str) -> str:
    return city.upper()


@mcp.tool()
def locate(city: str, where: Annotated[str, Resolve(geocode)]) -> str:
    """Locate a city."""
    return where
