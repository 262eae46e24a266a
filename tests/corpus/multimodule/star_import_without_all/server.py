# expect: ok
"""`from deps import *` where deps has no `__all__`: public names only."""
from typing import Annotated

from deps import *  # noqa: F403

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Star")


def _check(isbn: str) -> int:
    return 0


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check_stock)]) -> str:  # noqa: F405
    """Reserve a book."""
    return f"{title} {n}"
