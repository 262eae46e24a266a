# expect: MCPD009
# start: server = MCPServer()
# start: register(server)
"""A library of tools: `register(server: MCPServer)` that no code in the project calls.
Its users call it on their own server; the SDK refuses the broken tool then."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def today() -> str:
    return "2026-12-02"


def register(server: MCPServer) -> None:
    @server.tool()
    def agenda(day: Annotated[str, Resolve(today)], owner: str) -> list[str]:
        """Someone's agenda."""
        return [day, owner]

    @server.tool()
    def remind(note: "Reminder") -> str:
        """`Reminder` is defined nowhere: T3."""
        return "ok"
