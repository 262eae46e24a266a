# expect: MCPD007
"""`Resolve(settings)` where `settings` is an instance of a class without `__call__`."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T10")


class Settings:
    def __init__(self) -> None:
        self.limit = 10


settings = Settings()


@mcp.tool()
def run(x: int, conf: Annotated[Settings, Resolve(settings)]) -> int:
    """Run."""
    return conf.limit
