# expect: ok
"""The usual compatibility imports in try/except."""
try:
    from typing import Annotated
except ImportError:  # pragma: no cover
    from typing_extensions import Annotated

from mcp.server import MCPServer

try:
    from mcp.server.mcpserver import Resolve
except ImportError:  # pragma: no cover
    Resolve = None

mcp = MCPServer("Compat")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
