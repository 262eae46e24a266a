# expect: ok
"""A package's decorator with functools.wraps keeps the resolver's Context and Resolve hints (PEP 563)."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

from app.deco import logged

mcp = MCPServer("Shop")


def region(city: str) -> str:
    return city[:2]


@logged
def shipping(ctx: Context, zone: Annotated[str, Resolve(region)]) -> float:
    return 4.5


@mcp.tool()
def quote(city: str, cost: Annotated[float, Resolve(shipping)]) -> str:
    """Quote shipping."""
    return f"{city}: {cost}"
