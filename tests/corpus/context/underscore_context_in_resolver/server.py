# expect: ok
"""Resolver parameters are exempt from the underscore rule (only tool parameters are checked)."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Ctx")


def session_id(_ctx: Context, _trace: Annotated[str, Resolve(lambda: "t")]) -> str:
    return _trace


@mcp.tool()
def whoami(sid: Annotated[str, Resolve(session_id)]) -> str:
    """Return the session id."""
    return sid
