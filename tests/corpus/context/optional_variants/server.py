# expect: ok
"""`Context | None` and `Optional[Context]` are Context parameters too."""
from typing import Annotated, Optional

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Ctx")


def client_name(ctx: Context | None, user: str) -> str:
    return user if ctx is None else f"{user}@client"


def region(ctx: Optional[Context]) -> str:  # noqa: UP045
    return "eu"


@mcp.tool()
def hello(
    user: str,
    who: Annotated[str, Resolve(client_name)],
    where: Annotated[str, Resolve(region)],
    ctx: Optional[Context] = None,  # noqa: UP045
) -> str:
    """Say hello."""
    return f"{who} {where}"
