# expect: ok
# start: enable("title")
"""A tool whose body registers another tool: that happens on the first call (checked too)."""
from mcp.server import MCPServer

mcp = MCPServer("Body")


def extra(hidden: str) -> str:
    """Registered by the first call of `enable`, never at import."""
    return hidden


@mcp.tool()
def enable(title: str) -> str:
    """Adds a tool when called."""
    mcp.add_tool(extra)
    return title
