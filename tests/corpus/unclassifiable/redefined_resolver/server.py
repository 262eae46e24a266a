# expect: MCPD002
"""`check` is redefined between two tools: annotations are evaluated where each tool is
defined, so the first tool gets the first `check` (fine), the second the new one (R2)."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def check(title: str) -> int:
    return 1


@mcp.tool()
def first(title: str, n: Annotated[int, Resolve(check)]) -> int:
    """Uses the first check."""
    return n


def check(isbn: str) -> int:  # noqa: F811
    return 2


@mcp.tool()
def second(title: str, n: Annotated[int, Resolve(check)]) -> int:
    """Uses the redefined check."""
    return n
