# expect: ok
"""A bound method inherited from a base class: the SDK's id uses the function's own
qualname (`BaseCatalog.lookup`)."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Inherit")


class BaseCatalog:
    def lookup(self, title: str) -> int:
        return 1


class Catalog(BaseCatalog):
    """The shop's catalog."""


catalog = Catalog()


@mcp.tool()
def copies(title: str, n: Annotated[int, Resolve(catalog.lookup)]) -> int:
    """Copies of a title."""
    return n
