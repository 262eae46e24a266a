# expect: ok
"""A resolver taking several tool arguments by name; a tool argument it does not use."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Trips")


def distance(origin: str, destination: str) -> float:
    return float(len(origin) + len(destination))


@mcp.tool()
def plan_trip(
    origin: str,
    destination: str,
    passengers: int,
    km: Annotated[float, Resolve(distance)],
) -> str:
    """Plan a trip."""
    return f"{origin}->{destination}: {km} km for {passengers}"
