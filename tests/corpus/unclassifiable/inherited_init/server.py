# expect: MCPD002
"""A class resolver whose __init__ is inherited from a base class in another module."""
from typing import Annotated

from quotes import BaseQuote

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


class BookQuote(BaseQuote):
    """A quote for a book."""


@mcp.tool()
def quote(title: str, q: Annotated[BookQuote, Resolve(BookQuote)]) -> str:
    """Quote a book."""
    return q.title
