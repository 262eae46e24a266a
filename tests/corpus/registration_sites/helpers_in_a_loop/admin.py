"""Admin tools."""
from typing import Annotated

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve, Sample


class Confirm(BaseModel):
    sure: bool


def confirm(target: str) -> Elicit[Confirm] | Sample:
    return Elicit(f"Wipe {target}?", Confirm)


def register(server: MCPServer) -> None:
    @server.tool()
    def wipe(target: str, ok: Annotated[Confirm, Resolve(confirm)]) -> str:
        """Two question arms on one resolver: R4."""
        return target
