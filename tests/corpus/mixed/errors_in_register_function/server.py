# expect: MCPD002, MCPD008
"""Errors inside a `register(server)` function in another module; one tool there is fine."""
from mcp.server import MCPServer

from tools import register

mcp = MCPServer("Registered")
register(mcp)
