# expect: MCPD008
"""T1: a lambda registered without `name=` (mapped to MCPD008, see tests/corpus/README.md)."""
from mcp.server import MCPServer

mcp = MCPServer("T1")

mcp.add_tool(lambda text: text.upper())
mcp.add_tool(lambda text: text.lower(), name="whisper")
