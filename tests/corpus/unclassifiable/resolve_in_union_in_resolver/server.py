# expect: MCPD002
"""Inside a resolver, `Annotated[.., Resolve(f)] | None` is not a Resolve; with no matching argument it fails R2."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Broken")


def token(user: str) -> str:
    return user


def session(t: Annotated[str, Resolve(token)] | None) -> str:
    return t or ""


@mcp.tool()
def open_session(user: str, s: Annotated[str, Resolve(session)]) -> str:
    """Open a session."""
    return s
