# expect: MCPD004
"""The two question arms come from a type alias, made optional at the use site."""
from typing import Optional

from pydantic import BaseModel

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from mcp.server.mcpserver import Elicit, Sample

mcp = MCPServer("R4")


class Ok(BaseModel):
    ok: bool


Question = Elicit[Ok] | Sample


def decide(task: str) -> Optional[Question]:  # noqa: UP045
    return None


@mcp.tool()
def run(task: str, ok: Annotated[Ok, Resolve(decide)]) -> str:
    """Run a task."""
    return task
