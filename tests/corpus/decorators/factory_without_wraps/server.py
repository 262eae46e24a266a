# expect: MCPD002
"""`@retry(times=3)` returns `wrapper(*args, **kwargs)` without functools.wraps: the SDK sees the wrapper."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Geo")


def retry(times: int):
    def decorate(fn):
        def wrapper(*args, **kwargs):
            for _ in range(times - 1):
                try:
                    return fn(*args, **kwargs)
                except OSError:
                    pass
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
