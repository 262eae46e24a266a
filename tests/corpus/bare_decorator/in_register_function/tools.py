from mcp.server import MCPServer


def register(server: MCPServer) -> None:
    @server.tool
    def reserve(title: str) -> str:
        """Reserve."""
        return title
