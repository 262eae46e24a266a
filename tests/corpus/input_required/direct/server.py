# expect: MCPD005
"""`-> InputRequiredResult` on a tool with a resolved parameter."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
from mcp.types import InputRequiredResult

mcp = MCPServer("R5")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> InputRequiredResult:
    """Reserve."""
    raise NotImplementedError
