# expect: MCPD006
"""A tool argument starting with `_`."""
from mcp.server import MCPServer

mcp = MCPServer("T2")


@mcp.tool()
def reserve(title: str, _internal: int = 0) -> str:
    """Reserve."""
    return title
