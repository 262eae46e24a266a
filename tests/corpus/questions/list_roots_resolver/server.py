# expect: ok
"""A resolver returning `ListRoots()`; the consumer gets a ListRootsResult."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import ListRoots, Resolve
from mcp.types import ListRootsResult

mcp = MCPServer("Files")


async def client_roots() -> ListRoots:
    return ListRoots()


@mcp.tool()
async def list_projects(pattern: str, roots: Annotated[ListRootsResult, Resolve(client_roots)]) -> list[str]:
    """List the client's projects."""
    return [str(root.uri) for root in roots.roots]
