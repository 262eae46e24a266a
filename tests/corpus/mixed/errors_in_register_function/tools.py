"""Tools registered on the server given to `register`."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def site(host: str, port: int) -> str:
    return f"{host}:{port}"


def register(server: MCPServer) -> None:
    @server.tool()
    def fetch(host: str, s: Annotated[str, Resolve(site)]) -> str:
        """Fetch a page."""
        return s

    @server.tool
    def status(host: str) -> str:
        """Status."""
        return host

    @server.tool()
    def fine(host: str, port: int, s: Annotated[str, Resolve(site)]) -> str:
        """Fine."""
        return s
