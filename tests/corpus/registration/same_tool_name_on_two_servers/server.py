# expect: ok
"""Two servers in one module, each with its own tools; the same tool name on both is fine."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

public = MCPServer("Public")
admin = MCPServer("Admin")


def visible(item: str) -> bool:
    return not item.startswith(".")


@public.tool()
def show(item: str, ok: Annotated[bool, Resolve(visible)]) -> str:
    """Show an item."""
    return item if ok else "hidden"


@admin.tool()
def show_all(item: str) -> str:
    """Show any item."""
    return item


@admin.tool(name="show")
def admin_show(item: str, ok: Annotated[bool, Resolve(visible)]) -> str:
    """Show an item (admin)."""
    return item
