# expect: MCPD008
"""A bare decorator on the second of two servers; the first server's tool is fine."""
from mcp.server import MCPServer

shop = MCPServer("Shop")
admin = MCPServer("Admin")


@shop.tool()
def buy(item: str) -> str:
    """Buy."""
    return item


@admin.tool
def ban(user: str) -> str:
    """Ban."""
    return user
