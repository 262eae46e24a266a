# expect: MCPD008
"""`@mcp.tool` without parentheses."""
from mcp.server import MCPServer

mcp = MCPServer("T9")


@mcp.tool
def reserve(title: str) -> str:
    """Reserve."""
    return title
