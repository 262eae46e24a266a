# expect: ok
"""A tool may return InputRequiredResult itself when it has no Resolve parameter."""
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.types import InputRequiredResult

mcp = MCPServer("Manual")


@mcp.tool()
async def wizard(step: int, ctx: Context) -> InputRequiredResult | str:
    """A hand-written multi-round flow."""
    return f"step {step}"
