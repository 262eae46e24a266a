# expect: ok
"""`if TYPE_CHECKING: ... else: ...` binds the name at run time too: the hints evaluate."""
from __future__ import annotations

from typing import TYPE_CHECKING

from mcp.server import MCPServer

if TYPE_CHECKING:
    from decimal import Decimal
else:
    Decimal = float

mcp = MCPServer("Fallback")


@mcp.tool()
def pay(amount: Decimal) -> str:
    """Pay."""
    return str(amount)
