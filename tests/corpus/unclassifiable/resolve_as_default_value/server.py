# expect: MCPD002
"""FastAPI habit: `stock: int = Resolve(check_stock)` as a *default* in a resolver. Only an
`Annotated[...]` marker counts, so `stock` is matched by name, and it is no tool argument."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def check_stock(title: str) -> int:
    return 1


def delivery(stock: int = Resolve(check_stock)) -> str:  # type: ignore[assignment]
    return "soon" if stock else "later"


@mcp.tool()
def order(title: str, when: Annotated[str, Resolve(delivery)]) -> str:
    """Order a book."""
    return when
