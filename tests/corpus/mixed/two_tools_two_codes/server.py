# expect: MCPD005, MCPD007
"""R5 on one tool, T10 (`Resolve(3.5)`) on the other: each tool fails on its own."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from mcp.types import InputRequiredResult

mcp = MCPServer("Mixed")


def check(title: str) -> int:
    return 1


@mcp.tool()
def r5(title: str, n: Annotated[int, Resolve(check)]) -> InputRequiredResult:
    """R5."""
    raise NotImplementedError


@mcp.tool()
def t10(title: str, n: Annotated[int, Resolve(3.5)]) -> str:
    """T10."""
    return title
