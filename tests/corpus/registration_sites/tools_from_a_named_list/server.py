# expect: MCPD002
# start: mcp = build()
"""`for func in ALL_TOOLS: server.add_tool(func)` in a factory, the list written in another
module: each listed function is registered, so each is checked (R2 on `list_entries`)."""
from mcp.server import MCPServer

from catalogue import ALL_TOOLS


def build() -> MCPServer:
    server = MCPServer("Journal")
    if hasattr(server, "add_tool"):
        for func in ALL_TOOLS:
            server.add_tool(func)
    return server
