# expect: MCPD009
"""`Resolve(chek_stock)` (typo) under postponed annotations: the SDK cannot evaluate the
*tool's* annotations at all, so it reports T3 for the tool, not an invalid resolver."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T3")


def check_stock(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(chek_stock)]) -> str:  # noqa: F821
    """Reserve."""
    return title
