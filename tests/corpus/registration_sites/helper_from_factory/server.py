# expect: MCPD003
# start: mcp = create_server()
"""The factory creates the server and hands it to a helper of another module."""
from mcp.server import MCPServer

from tools import catalogue


def create_server() -> MCPServer:
    mcp = MCPServer("Catalogue")
    catalogue.register(mcp)
    return mcp
