# expect: MCPD009
"""Postponed annotations naming a class that is defined *after* the tool is registered:
the SDK evaluates them at registration, when the name does not exist yet."""
from __future__ import annotations

from mcp.server import MCPServer

mcp = MCPServer("Later")


@mcp.tool()
def ship(parcel: Parcel) -> str:
    """Ship a parcel."""
    return parcel.country


class Parcel:
    country: str = "FR"
