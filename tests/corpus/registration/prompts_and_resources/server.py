# expect: ok
"""Prompts and resources beside tools: no Resolve on them, nothing to report."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Mixed")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"


@mcp.prompt()
def review(title: str) -> str:
    """Ask for a review."""
    return f"Review {title}"


@mcp.resource("books://{title}")
def book(title: str) -> str:
    """A book."""
    return title
