# expect: ok
"""A method's return annotation names a class nested in its class (`Item`): evaluated eagerly
in the class body, it works."""

from typing import Annotated

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Catalog")


class Catalog:
    class Item(BaseModel):
        title: str

    def lookup(self, title: str, ctx: Context) -> Item:
        return Catalog.Item(title=title)


catalog = Catalog()


@mcp.tool()
def describe(title: str, item: Annotated[Catalog.Item, Resolve(catalog.lookup)]) -> str:
    """Describe a book."""
    return item.title
