# expect: ok
"""Context first, then Resolve, then the name: a resolver parameter named like a tool argument
but annotated Context, or annotated with Resolve, is not matched by name."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Order")


def normalized(title: str) -> str:
    return title.strip()


def describe(title: Annotated[str, Resolve(normalized)], user: Context) -> str:
    return title


@mcp.tool()
def show(title: str, user: str, text: Annotated[str, Resolve(describe)]) -> str:
    """Show a title."""
    return text
