# expect: MCPD002
"""A callable instance whose __call__ takes a parameter that is no tool argument."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


class Limiter:
    def __call__(self, user: str, bucket: str) -> int:
        return 1


limiter = Limiter()


@mcp.tool()
def fetch(user: str, url: str, left: Annotated[int, Resolve(limiter)]) -> str:
    """Fetch."""
    return url
