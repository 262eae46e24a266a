# expect: ok
"""`Elicit[Ok] | Elicit[Ok]`: typing removes the duplicate arm, so it is one question."""
from typing import Annotated

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve

mcp = MCPServer("Ask")


class Ok(BaseModel):
    ok: bool


def confirm(task: str) -> Elicit[Ok] | Elicit[Ok] | Ok:
    return Elicit(f"Run {task}?", Ok)


@mcp.tool()
def run(task: str, ok: Annotated[Ok, Resolve(confirm)]) -> str:
    """Run a task."""
    return task
