# expect: ok
"""A generic dependency alias imported from another module, used under PEP 563."""
from __future__ import annotations

from mcp.server import MCPServer

from deps import Dep, stock

mcp = MCPServer("Alias")


@mcp.tool()
def reserve(title: str, n: Dep[int]) -> str:
    """Reserve a book."""
    return f"{title} {n}"


__all__ = ["stock"]
