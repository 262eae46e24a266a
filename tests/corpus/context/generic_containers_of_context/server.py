# expect: ok
"""Any generic with Context among its arguments is a Context parameter, for the SDK:
`type[Context]` on a tool, `list[Context]` on a resolver."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Ctx")


def caller(ctxs: list[Context], team: str) -> str:
    return team


@mcp.tool()
def ping(team: str, ctx: type[Context], who: Annotated[str, Resolve(caller)]) -> str:
    """Ping a team."""
    return who
