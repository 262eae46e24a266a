# expect: ok
"""`Maybe = Optional[T]` used as `ctx: Maybe[Context]`: still the tool's Context parameter."""
from typing import Optional, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver import Context

T = TypeVar("T")
Maybe = Optional[T]
mcp = MCPServer("Ctx")


@mcp.tool()
def whoami(title: str, ctx: Maybe[Context] = None) -> str:
    """Who am I."""
    return title
