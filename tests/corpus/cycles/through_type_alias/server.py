# expect: MCPD001
"""A cycle whose edges are written with type aliases (postponed annotations)."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Cycles")


def region_of(user: str, tier: TierDep) -> str:
    return "eu"


def tier_of(region: RegionDep) -> str:
    return "gold"


RegionDep = Annotated[str, Resolve(region_of)]
TierDep = Annotated[str, Resolve(tier_of)]


@mcp.tool()
def route(user: str, region: RegionDep) -> str:
    """Route a user."""
    return region
