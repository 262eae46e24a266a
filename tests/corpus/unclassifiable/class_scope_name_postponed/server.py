# expect: MCPD002
"""The same method under postponed annotations: `Item` is looked up in the module globals at
registration, fails, so the method's hints are all lost and `ctx` is unclassifiable."""
from __future__ import annotations

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
