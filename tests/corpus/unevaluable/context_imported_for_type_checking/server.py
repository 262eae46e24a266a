# expect: MCPD009
"""A common pattern that breaks a tool: Context imported only for type checkers, under
postponed annotations. The tool's hints cannot be evaluated at registration."""
from __future__ import annotations

from typing import TYPE_CHECKING

from mcp.server import MCPServer

if TYPE_CHECKING:
    from mcp.server.mcpserver import Context

mcp = MCPServer("T3")


@mcp.tool()
async def log(message: str, ctx: Context) -> str:
    """Log a message."""
    await ctx.info(message)
    return message
