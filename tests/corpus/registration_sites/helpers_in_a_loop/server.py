# expect: MCPD004
# start: server = build()
"""`for module in (notes, admin): module.register(server)` inside the factory."""
from mcp.server import MCPServer

import admin
import notes


def build() -> MCPServer:
    server = MCPServer("Loop")
    for module in (notes, admin):
        module.register(server)
    return server
