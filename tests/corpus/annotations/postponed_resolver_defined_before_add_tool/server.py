# expect: ok
"""Postponed annotations, the resolver defined after the tool function but before add_tool:
the SDK evaluates the hints at registration, when `check` exists."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Later")


def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"


def check(title: str) -> int:
    return 1


mcp.add_tool(reserve)
