# expect: ok
"""A class nested in another class as resolver (`Resolve(Catalog.Query)`)."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Nested")


class Catalog:
    class Query:
        def __init__(self, title: str, limit: int) -> None:
            self.title = title
            self.limit = limit


@mcp.tool()
def search(title: str, limit: int, q: Annotated[Catalog.Query, Resolve(Catalog.Query)]) -> str:
    """Search the catalog."""
    return q.title
