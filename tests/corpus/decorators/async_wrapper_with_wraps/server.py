# expect: ok
"""An async wrapper with wraps around an async resolver: awaited, signature `(city)`."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Async")


def traced(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        return await fn(*args, **kwargs)

    return wrapper


@traced
async def geocode(city: str) -> str:
    return city.upper()


@mcp.tool()
async def locate(city: str, where: Annotated[str, Resolve(geocode)]) -> str:
    """Locate a city."""
    return where
