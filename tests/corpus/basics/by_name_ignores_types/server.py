# expect: ok
"""Matching by name never compares types: a resolver's `quantity: str` takes the tool's
`quantity: int` (the SDK passes the validated int)."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Types")


def label(quantity: str) -> str:
    return f"x{quantity}"


@mcp.tool()
def order(title: str, quantity: int, tag: Annotated[str, Resolve(label)]) -> str:
    """Order copies of a book."""
    return f"{title} {tag}"
