# expect: MCPD003
"""`dict[str, Annotated[T, Resolve(f)]]`, under postponed annotations."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R3")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, table: dict[str, Annotated[int, Resolve(check)]]) -> str:
    """Reserve."""
    return title
