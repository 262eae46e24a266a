# expect: ok
# start: mcp = build(Deps("db://"))
"""`register(server: MCPServer[Deps], deps: Deps)`, called from the factory."""
from dataclasses import dataclass
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


@dataclass
class Deps:
    url: str


def register(server: MCPServer[Deps], deps: Deps) -> None:
    def connection() -> str:
        return deps.url

    @server.tool()
    def query(sql: str, conn: Annotated[str, Resolve(connection)]) -> str:
        """Run a query."""
        return f"{conn}: {sql}"


def build(deps: Deps) -> MCPServer[Deps]:
    mcp: MCPServer[Deps] = MCPServer("Typed")
    register(mcp, deps)
    return mcp
