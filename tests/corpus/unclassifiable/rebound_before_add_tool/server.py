# expect: MCPD002
"""Postponed annotations: `check` is re-bound between the tool's definition and add_tool, and
the SDK evaluates the hints at registration, so it sees the new `check`."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def check(title: str) -> int:
    return 1


def by_isbn(isbn: str) -> int:
    return 2


def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"


check = by_isbn
mcp.add_tool(reserve)
