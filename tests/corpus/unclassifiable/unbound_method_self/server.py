# expect: MCPD002
"""`Resolve(Service.method)`: the unbound method's `self` cannot be resolved."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


class Catalog:
    def lookup(self, title: str) -> str:
        return title


@mcp.tool()
def describe(title: str, author: Annotated[str, Resolve(Catalog.lookup)]) -> str:
    """Describe a book."""
    return author
