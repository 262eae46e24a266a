# expect: MCPD009
"""Only the return annotation of the tool is unevaluable: that is enough."""
from __future__ import annotations

from typing import TYPE_CHECKING

from mcp.server import MCPServer

if TYPE_CHECKING:
    from decimal import Decimal

mcp = MCPServer("T3")


@mcp.tool()
def total(a: float, b: float) -> Decimal:
    """Sum."""
    raise NotImplementedError
