# expect: MCPD010
"""T1: a lambda registered without `name=` (MCPD010 lambda-tool-without-name, not in the contract table)."""
from mcp.server import MCPServer

mcp = MCPServer("T1")

mcp.add_tool(lambda text: text.upper())
mcp.add_tool(lambda text: text.lower(), name="whisper")
