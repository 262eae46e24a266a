# expect: ok
"""A resolver in one module depending on a resolver in another; a tool in a third."""
from orders import register

from mcp.server import MCPServer

mcp = MCPServer("Chain")
register(mcp)
