from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def register(server: MCPServer) -> None:
    def local_check(title: str) -> int:
        return len(title)

    @server.tool()
    def reserve(title: str, n: Annotated[int, Resolve(local_check)]) -> str:
        """Reserve a book."""
        return f"{title} {n}"
