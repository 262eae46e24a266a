# expect: ok
"""Two question arms, but the resolver's hints cannot be evaluated (a TYPE_CHECKING-only name
in the same annotation): the SDK sees no return annotation, so it does not check the arms;
the parameter is a tool argument by name, and the server registers."""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve, Sample

if TYPE_CHECKING:
    from decimal import Decimal

mcp = MCPServer("Ask")


class Ok(BaseModel):
    ok: bool


def decide(task: str) -> Elicit[Ok] | Sample | Decimal:
    return Elicit(f"Run {task}?", Ok)


@mcp.tool()
def run(task: str, ok: Annotated[Ok, Resolve(decide)]) -> str:
    """Run a task."""
    return task
