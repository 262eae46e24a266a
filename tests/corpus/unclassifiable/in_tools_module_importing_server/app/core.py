from mcp.server import MCPServer

mcp = MCPServer("Pkg")
