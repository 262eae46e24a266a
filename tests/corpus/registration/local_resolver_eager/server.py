# expect: ok
"""A resolver defined inside register(): fine while annotations are evaluated eagerly."""
from tools import register

from mcp.server import MCPServer

mcp = MCPServer("Local")
register(mcp)
