# expect: MCPD002
"""The resolver's return type is defined after the tool registration: at registration its
hints cannot be evaluated, so its Context parameter is unclassifiable."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Later")


def load(title: str, ctx: Context) -> Book:
    return Book()


@mcp.tool()
def show(title: str, book: Annotated[object, Resolve(load)]) -> str:
    """Show a book."""
    return title


class Book:
    pass
