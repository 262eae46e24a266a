# expect: MCPD002
"""A resolver parameter named like the tool's Context parameter, but not annotated Context."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("R2")


def request_id(ctx) -> str:
    return "1"


@mcp.tool()
def trace(message: str, ctx: Context, rid: Annotated[str, Resolve(request_id)]) -> str:
    """Trace."""
    return rid
