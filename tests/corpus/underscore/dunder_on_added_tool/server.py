# expect: MCPD006
"""`__x` on a tool registered with add_tool(name=...)."""
from mcp.server import MCPServer

mcp = MCPServer("T2")


def impl(title: str, __trace: str = "") -> str:
    return title


mcp.add_tool(impl, name="reserve")
