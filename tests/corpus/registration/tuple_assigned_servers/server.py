# expect: MCPD006
"""Two servers bound by one tuple assignment; the second one's tool has an `_` parameter."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

shop, admin = MCPServer("Shop"), MCPServer("Admin")


def check(title: str) -> int:
    return 1


@shop.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"


@admin.tool()
def purge(title: str, _force: bool = False) -> str:
    """Purge a title."""
    return title
