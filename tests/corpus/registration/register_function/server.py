# expect: ok
"""Tools registered by `register(server: MCPServer)` in another module, called with the server."""
from tools import register

from mcp.server import MCPServer

mcp = MCPServer("Reg")
register(mcp)
