"""Catalogue tools, registered on whatever server the application builds."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def author_of(title: str) -> str:
    return "Herbert"


def register(server: MCPServer) -> None:
    @server.tool()
    def describe(title: str, author: Annotated[str, Resolve(author_of)]) -> str:
        """Describe a book."""
        return f"{title} by {author}"

    @server.tool()
    def maybe_author(title: str, author: Annotated[str, Resolve(author_of)] | None = None) -> str:
        """A Resolve inside a union: R3."""
        return title
