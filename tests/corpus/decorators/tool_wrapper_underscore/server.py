# expect: MCPD006
"""The no-wraps wrapper's own `_trace` parameter is what the SDK checks: T2 on tool `wrapper`."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Tools")


def traced(fn):
    def wrapper(title: str, _trace: bool = False) -> str:
        return fn(title)

    return wrapper


@mcp.tool()
@traced
def reserve(title: str) -> str:
    """Reserve a book."""
    return title
