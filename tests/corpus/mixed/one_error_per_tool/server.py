# expect: MCPD001, MCPD002, MCPD003, MCPD006
"""Four tools, four different errors, plus one valid tool."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Mixed")


def check_stock(title: str) -> int:
    return 1


def loop_a(title: str, b: Annotated[int, Resolve(loop_b)]) -> int:
    return b


def loop_b(a: Annotated[int, Resolve(loop_a)]) -> int:
    return a


def by_isbn(isbn: str) -> int:
    return 1


@mcp.tool()
def fine(title: str, n: Annotated[int, Resolve(check_stock)]) -> str:
    """Valid."""
    return title


@mcp.tool()
def cyclic(title: str, n: Annotated[int, Resolve(loop_a)]) -> str:
    """R1."""
    return title


@mcp.tool()
def unknown(title: str, n: Annotated[int, Resolve(by_isbn)]) -> str:
    """R2."""
    return title


@mcp.tool()
def optional(title: str, n: Annotated[int, Resolve(check_stock)] | None = None) -> str:
    """R3."""
    return title


@mcp.tool()
def hidden(title: str, _n: int = 0) -> str:
    """T2."""
    return title
