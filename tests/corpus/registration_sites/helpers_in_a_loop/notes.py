"""Note tools."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def folder(owner: str) -> str:
    return f"/notes/{owner}"


def register(server: MCPServer) -> None:
    @server.tool()
    def list_notes(owner: str, where: Annotated[str, Resolve(folder)]) -> list[str]:
        """List someone's notes."""
        return [where]
