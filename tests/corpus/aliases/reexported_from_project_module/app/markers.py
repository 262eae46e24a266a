"""One place for the SDK names the project uses."""
from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

__all__ = ["Context", "MCPServer", "Resolve"]
