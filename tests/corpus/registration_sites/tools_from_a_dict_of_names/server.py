# expect: MCPD006
# start: mcp = create_server()
"""`for name, fn in TOOLS.items(): mcp.add_tool(fn, name=name)`: each value is registered
under its key, which is the tool's name (T2 on `journal_search`, registered from `search`)."""
from mcp.server import MCPServer

from handlers import TOOLS


def create_server() -> MCPServer:
    mcp = MCPServer("Journal")
    for name, fn in TOOLS.items():
        mcp.add_tool(fn, name=name)
    return mcp
