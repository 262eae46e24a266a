# expect: MCPD003
"""`Optional[Annotated[T, Resolve(f)]]`."""
from typing import Annotated, Optional

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R3")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Optional[Annotated[int, Resolve(check)]]) -> str:  # noqa: UP045
    """Reserve."""
    return title
