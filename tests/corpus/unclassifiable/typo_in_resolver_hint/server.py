# expect: MCPD002
"""A typo in one hint of a resolver: its Resolve parameter is then unclassifiable."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def check_stock(title: str) -> int:
    return 1


def delivery(title: Sting, stock: Annotated[int, Resolve(check_stock)]) -> str:  # noqa: F821
    return "soon"


@mcp.tool()
def order(title: str, when: Annotated[str, Resolve(delivery)]) -> str:
    """Order a book."""
    return when
