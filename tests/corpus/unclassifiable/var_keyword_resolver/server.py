# expect: MCPD002
"""A resolver taking `**options`: the SDK classifies it like any parameter, by its name."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def settings(**options: str) -> dict[str, str]:
    return options


@mcp.tool()
def configure(name: str, conf: Annotated[dict[str, str], Resolve(settings)]) -> str:
    """Configure."""
    return name
