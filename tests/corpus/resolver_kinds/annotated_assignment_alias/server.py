# expect: ok
"""A resolver bound by an annotated assignment (`check: Callable[[str], int] = _impl`)."""
from collections.abc import Callable

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Alias")


def _impl(title: str) -> int:
    return 1


check: Callable[[str], int] = _impl


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
