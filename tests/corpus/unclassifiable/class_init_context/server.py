# expect: MCPD002
"""A class resolver's Context parameter: hints of a class are not read, so Context is not recognised."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("R2")


class Session:
    def __init__(self, user: str, ctx: Context) -> None:
        self.user = user


@mcp.tool()
def whoami(user: str, session: Annotated[Session, Resolve(Session)]) -> str:
    """Who am I."""
    return session.user
