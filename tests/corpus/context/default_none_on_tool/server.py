# expect: ok
"""A tool's `ctx: Context | None = None` is still the Context parameter."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Ctx")


def normalized(query: str) -> str:
    return query.strip().lower()


@mcp.tool()
def search(query: str, q: Annotated[str, Resolve(normalized)], ctx: Context | None = None) -> list[str]:
    """Search the catalogue."""
    return [q]
