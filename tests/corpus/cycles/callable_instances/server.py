# expect: MCPD001
"""A cycle between two callable instances (their __call__ hints are read)."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Cycles")


class Quota:
    def __call__(self, user: str, plan: Annotated[str, Resolve(plan)]) -> int:
        return 1


class Plan:
    def __call__(self, q: Annotated[int, Resolve(quota)]) -> str:
        return "pro"


quota = Quota()
plan = Plan()


@mcp.tool()
def upload(user: str, left: Annotated[int, Resolve(quota)]) -> str:
    """Upload."""
    return str(left)
