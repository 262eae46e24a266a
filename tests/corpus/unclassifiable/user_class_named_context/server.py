# expect: MCPD002
"""A project class that happens to be called `Context` is not the SDK's Context."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


class Context:
    """The shop's own context object, unrelated to the SDK."""


def region(ctx: Context, user: str) -> str:
    return "eu"


@mcp.tool()
def hello(user: str, where: Annotated[str, Resolve(region)]) -> str:
    """Say hello."""
    return where
