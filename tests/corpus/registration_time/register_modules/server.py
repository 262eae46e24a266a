# expect: MCPD002
"""`tools.register(mcp)` is called, `tools.register_admin` is not: only the first one's tools exist."""
from mcp.server import MCPServer

import tools

mcp = MCPServer("Modules")
tools.register(mcp)
