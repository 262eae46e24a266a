# expect: ok
"""Context in a tool and in its resolver; neither is a schema property."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Ctx")


async def request_id(ctx: Context) -> str:
    return str(ctx.request_id)


@mcp.tool()
async def trace(message: str, ctx: Context, rid: Annotated[str, Resolve(request_id)]) -> str:
    """Trace a message."""
    await ctx.info(message)
    return rid
