# expect: ok
"""One function registered on two servers by stacked decorators."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

shop = MCPServer("Shop")
admin = MCPServer("Admin")


def check(title: str) -> int:
    return 1


@shop.tool()
@admin.tool(name="admin_reserve")
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
