# expect: MCPD004
"""An unsubscripted `Elicit` arm counts as a question arm too."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, ListRoots, Resolve

mcp = MCPServer("R4")


def where(task: str) -> Elicit | ListRoots:
    return ListRoots()


@mcp.tool()
def run(task: str, place: Annotated[object, Resolve(where)]) -> str:
    """Run a task."""
    return task
