# expect: ok
"""A package using relative imports; tools registered by `shop.tools.register(mcp)`."""
from shop import tools

from mcp.server import MCPServer

mcp = MCPServer("Relative")
tools.register(mcp)
