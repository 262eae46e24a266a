# expect: ok
"""A class without its own __init__ as resolver: nothing to classify."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Clock")


class Clock:
    def now(self) -> str:
        return "12:00"


@mcp.tool()
def time_in(city: str, clock: Annotated[Clock, Resolve(Clock)]) -> str:
    """The time in a city."""
    return f"{city}: {clock.now()}"
