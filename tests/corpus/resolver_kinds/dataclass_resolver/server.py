# expect: ok
"""A dataclass as resolver: its generated __init__ takes tool arguments."""
from dataclasses import dataclass
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Shipping")


@dataclass
class Parcel:
    weight: float
    country: str


@mcp.tool()
def ship(weight: float, country: str, parcel: Annotated[Parcel, Resolve(Parcel)]) -> str:
    """Ship a parcel."""
    return f"{parcel.weight}kg to {parcel.country}"
