# expect: ok
"""Sync and async resolvers mixed in one graph, under a sync and an async tool."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Mixed")


def parse_user(user: str) -> str:
    return user.strip().lower()


async def load_profile(handle: Annotated[str, Resolve(parse_user)]) -> dict[str, str]:
    return {"handle": handle}


@mcp.tool()
async def profile(user: str, data: Annotated[dict[str, str], Resolve(load_profile)]) -> str:
    """Show a profile."""
    return data["handle"]


@mcp.tool()
def handle(user: str, normalized: Annotated[str, Resolve(parse_user)]) -> str:
    """Normalize a handle."""
    return normalized
