# expect: ok
"""A lambda registered as a tool with `name=` is accepted."""
from mcp.server import MCPServer

mcp = MCPServer("Reg")

mcp.add_tool(lambda text: text.upper(), name="shout")
mcp.add_tool(lambda a, b: a + b, name="add", description="Add two numbers.")
