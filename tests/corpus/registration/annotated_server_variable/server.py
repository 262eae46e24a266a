# expect: MCPD002
"""`mcp: MCPServer = build()` where `build` is not annotated: the variable's annotation says
what it holds (one tool fine, one unclassifiable)."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve



def build():  # noqa: ANN201
    return MCPServer("Annotated")


mcp: MCPServer = build()


def check(title: str) -> int:
    return 1


def by_isbn(isbn: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"


@mcp.tool()
def lookup(title: str, n: Annotated[int, Resolve(by_isbn)]) -> str:
    """Look a book up."""
    return title
