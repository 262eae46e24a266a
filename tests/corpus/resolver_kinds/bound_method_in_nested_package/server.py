# expect: ok
"""A bound method of an instance that lives in a nested package module."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from app.services import catalog
from app.services.catalog import CATALOG

mcp = MCPServer("Deep")


@mcp.tool()
def author(title: str, who: Annotated[str, Resolve(CATALOG.author)], year: Annotated[int, Resolve(catalog.CATALOG.year)]) -> str:
    """Author of a book."""
    return f"{who} ({year})"
