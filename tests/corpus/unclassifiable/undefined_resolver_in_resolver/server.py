# expect: MCPD002
"""Under postponed annotations, `Resolve(missing)` inside a *resolver* makes its hints unevaluable (R2, not T10)."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Broken")


def outer(user: str, inner: Annotated[int, Resolve(missing_resolver)]) -> int:
    return inner


@mcp.tool()
def use(user: str, v: Annotated[int, Resolve(outer)]) -> int:
    """Use."""
    return v
