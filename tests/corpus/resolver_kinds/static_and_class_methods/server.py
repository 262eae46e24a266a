# expect: ok
"""staticmethod and classmethod resolvers, referenced through the class."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Units")


class Units:
    factor = 2.54

    @staticmethod
    def normalize(unit: str) -> str:
        return unit.lower()

    @classmethod
    def to_cm(cls, inches: float) -> float:
        return inches * cls.factor


@mcp.tool()
def measure(
    inches: float,
    unit: str,
    cm: Annotated[float, Resolve(Units.to_cm)],
    norm: Annotated[str, Resolve(Units.normalize)],
) -> str:
    """Convert a measure."""
    return f"{cm} {norm}"
