from typing import Annotated

from mcp.server.mcpserver import Resolve

from app.core import mcp


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
