# expect: MCPD002
"""A resolver whose hints cannot be evaluated (a TYPE_CHECKING-only import under postponed
annotations): the SDK sees no hints at all, so its Context parameter is unclassifiable."""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

if TYPE_CHECKING:
    from decimal import Decimal

mcp = MCPServer("R2")


def price(title: str, ctx: Context) -> Decimal:
    raise NotImplementedError


@mcp.tool()
def quote(title: str, amount: Annotated[float, Resolve(price)]) -> str:
    """Quote a price."""
    return str(amount)
