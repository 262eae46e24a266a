# expect: MCPD002
# start: mcp = create()
"""The factory calls `install(server)`, which passes its parameter on to each module's helper."""
from mcp.server import MCPServer

import search


def install(server):
    search.register_search(server)


def create() -> MCPServer:
    mcp = MCPServer("Chain")
    install(mcp)
    return mcp
