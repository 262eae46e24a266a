# expect: MCPD006
"""`add_tool(fn=...)` registering a function with a parameter starting with `_`."""
from mcp.server import MCPServer

mcp = MCPServer("T2")


def impl(title: str, _trace: str = "") -> str:
    return title


mcp.add_tool(fn=impl, name="reserve_book")
