# expect: ok
"""A dataclass resolver with an `init=False` field: not an __init__ parameter."""
from dataclasses import dataclass, field

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Shipping")


@dataclass
class Parcel:
    weight: float
    label: str = field(init=False, default="")


@mcp.tool()
def ship(weight: float, parcel: Annotated[Parcel, Resolve(Parcel)]) -> str:
    """Ship a parcel."""
    return f"{parcel.weight}kg"
