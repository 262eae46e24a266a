# expect: MCPD008
"""A bare decorator on the `server` parameter of a register function in another module."""
from tools import register

from mcp.server import MCPServer

mcp = MCPServer("T9")
register(mcp)
