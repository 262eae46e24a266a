# expect: ok
"""Two servers in one module, each with its own tools sharing one resolver."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

shop = MCPServer("Shop")
admin = MCPServer("Admin")


def user_of(token: str) -> str:
    return token[:4]


@shop.tool()
def buy(token: str, item: str, user: Annotated[str, Resolve(user_of)]) -> str:
    """Buy an item."""
    return f"{user} bought {item}"


@admin.tool()
def ban(token: str, target: str, user: Annotated[str, Resolve(user_of)]) -> str:
    """Ban a user."""
    return f"{user} banned {target}"
