"""Tools registered on whatever server is passed in."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def check(title: str) -> int:
    return 1


def register(server: MCPServer) -> None:
    @server.tool()
    def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
        """Reserve a book."""
        return f"{title} {n}"

    def status(title: str, n: Annotated[int, Resolve(check)]) -> str:
        return str(n)

    server.add_tool(status, name="book_status")
