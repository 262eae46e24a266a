# expect: MCPD009
"""One postponed annotation spelt by two tools of a module, one registered before the alias it
names is bound and one after: the SDK rejects the first and registers the second (the same
spelling does not mean the same thing at every registration)."""
from __future__ import annotations

from mcp.server import MCPServer

mcp = MCPServer("Twice")


@mcp.tool()
def ship_early(country: Country) -> str:
    """Ship a parcel."""
    return country


Country = str


@mcp.tool()
def ship_late(country: Country) -> str:
    """Ship a parcel."""
    return country
