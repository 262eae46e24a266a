# expect: ok
"""A server built by a factory function and tools registered inside it."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def check(title: str) -> int:
    return 1


def build() -> MCPServer:
    server = MCPServer("Factory")

    @server.tool()
    def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
        """Reserve a book."""
        return f"{title} {n}"

    return server


app = build()
