# expect: MCPD002
"""An unclassifiable parameter two levels below the tool."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def tenant_of(org: str) -> str:
    return org


def region_of(tenant: Annotated[str, Resolve(tenant_of)], zone: str) -> str:
    return zone


def endpoint(region: Annotated[str, Resolve(region_of)]) -> str:
    return region


@mcp.tool()
def deploy(app: str, url: Annotated[str, Resolve(endpoint)]) -> str:
    """Deploy."""
    return url
