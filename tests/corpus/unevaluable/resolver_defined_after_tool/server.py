# expect: MCPD009
"""Postponed annotations: `Resolve(check)` names a resolver defined below the tool."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Later")


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return title


def check(title: str) -> int:
    return 1
