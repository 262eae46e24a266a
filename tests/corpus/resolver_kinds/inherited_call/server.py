# expect: ok
"""A callable instance whose __call__ is inherited from its base class."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Limits")


class Limiter:
    def __call__(self, user: str) -> int:
        return 10


class StrictLimiter(Limiter):
    """Same call, other settings."""


limiter = StrictLimiter()


@mcp.tool()
def fetch(user: str, url: str, left: Annotated[int, Resolve(limiter)]) -> str:
    """Fetch a URL."""
    return f"{url} {left}"
