"""Tool registration helpers."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def stock(title: str, warehouse: str) -> int:
    return 3


def register(server: MCPServer) -> None:
    @server.tool()
    def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
        """Reserve a book (stock needs `warehouse`: R2)."""
        return title


def register_admin(server: MCPServer) -> None:
    @server.tool()
    def wipe(_everything: bool) -> str:
        """Registered on the server the caller passes."""
        return "gone"
