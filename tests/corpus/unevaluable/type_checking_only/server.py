# expect: MCPD009
"""A tool argument typed with a TYPE_CHECKING-only import under postponed annotations."""
from __future__ import annotations

from typing import TYPE_CHECKING

from mcp.server import MCPServer

if TYPE_CHECKING:
    from decimal import Decimal

mcp = MCPServer("T3")


@mcp.tool()
def pay(amount: Decimal) -> str:
    """Pay."""
    return str(amount)
