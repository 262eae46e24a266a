# expect: MCPD004
"""A resolver that may ask the user or the client's LLM."""

from typing import Annotated

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, ListRoots, Resolve, Sample
from mcp.types import SamplingMessage, TextContent

mcp = MCPServer("R4")


class Ok(BaseModel):
    ok: bool


class Name(BaseModel):
    name: str


def decide(task: str) -> Elicit[Ok] | Sample:
    if task:
        return Elicit("Go?", Ok)
    return Sample([SamplingMessage(role="user", content=TextContent(type="text", text="go?"))], max_tokens=5)


@mcp.tool()
def run(task: str, ok: Annotated[Ok, Resolve(decide)]) -> str:
    """Run."""
    return task
