# expect: ok
"""Bound methods of a module-level instance as resolvers, one depending on another (postponed hints)."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Catalog")


class CatalogService:
    def __init__(self) -> None:
        self.books = {"Dune": "Herbert"}

    def lookup(self, title: str) -> str:
        return self.books.get(title, "unknown")

    async def summary(self, author: Annotated[str, Resolve(catalog_lookup)]) -> str:
        return f"by {author}"


catalog = CatalogService()
catalog_lookup = catalog.lookup


@mcp.tool()
async def describe(
    title: str,
    author: Annotated[str, Resolve(catalog.lookup)],
    text: Annotated[str, Resolve(catalog.summary)],
) -> str:
    """Describe a book."""
    return f"{title} {author} {text}"
