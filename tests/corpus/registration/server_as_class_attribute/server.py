# expect: MCPD002
"""A server held by a class attribute: `@App.server.tool()`; one tool is fine, one is not."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve



class App:
    server = MCPServer("App")


def check(title: str) -> int:
    return 1


def by_isbn(isbn: str) -> int:
    return 1


@App.server.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"


@App.server.tool()
def lookup(title: str, n: Annotated[int, Resolve(by_isbn)]) -> str:
    """Look a book up."""
    return title


mcp = App.server
