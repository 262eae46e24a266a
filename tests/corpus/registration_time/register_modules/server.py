# expect: MCPD002, MCPD006
# start: tools.register_admin(MCPServer("Admin"))
"""`tools.register(mcp)` is called at import, `tools.register_admin` by no one in the project
(a library helper): both are checked, the second on the server it is given."""
from mcp.server import MCPServer

import tools

mcp = MCPServer("Modules")
tools.register(mcp)
