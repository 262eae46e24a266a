# expect: ok
"""A plain class as resolver: all its __init__ parameters are tool arguments."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Quotes")


class Quote:
    def __init__(self, title: str, quantity: int) -> None:
        self.title = title
        self.quantity = quantity


@mcp.tool()
def make_quote(title: str, quantity: int, quote: Annotated[Quote, Resolve(Quote)]) -> str:
    """Build a quote."""
    return f"{quote.title} x{quote.quantity}"
