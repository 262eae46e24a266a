# expect: MCPD008
"""`mcp.tool(fn)`: the function passed where the name goes, the same T9 error as `@mcp.tool`."""
from mcp.server import MCPServer

mcp = MCPServer("T9")


def reserve(title: str) -> str:
    return title


mcp.tool(reserve)
