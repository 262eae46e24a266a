# expect: MCPD002
"""A subclass overrides the resolver method with another parameter: the override is used."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


class BaseCatalog:
    def lookup(self, title: str) -> int:
        return 1


class Catalog(BaseCatalog):
    def lookup(self, isbn: str) -> int:  # type: ignore[override]
        return 2


catalog = Catalog()


@mcp.tool()
def copies(title: str, n: Annotated[int, Resolve(catalog.lookup)]) -> int:
    """Copies of a title."""
    return n
