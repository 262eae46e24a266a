# expect: MCPD006
"""A tool's Context parameter starting with `_` is rejected too."""
from mcp.server import MCPServer
from mcp.server.mcpserver import Context

mcp = MCPServer("T2")


@mcp.tool()
async def reserve(title: str, _ctx: Context) -> str:
    """Reserve."""
    return title
