# expect: ok
"""A resolver with an unclassifiable parameter that no tool uses: the SDK never analyses it."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Unused")


def check(title: str) -> int:
    return 1


def legacy_check(isbn: str, warehouse: str) -> int:
    return 0


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
