# expect: MCPD002
"""A class resolver whose __init__ takes a parameter that is not a tool argument."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


class Quote:
    def __init__(self, title: str, currency: str) -> None:
        self.title = title


@mcp.tool()
def make_quote(title: str, quote: Annotated[Quote, Resolve(Quote)]) -> str:
    """Make a quote."""
    return quote.title
