# expect: MCPD002
"""`geocode = traced(_geocode)`: the name is bound to what the call returns, the bare wrapper."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Geo")


def traced(fn):
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
