# expect: MCPD004
"""`Sample | ListRoots`."""

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


def context_of(task: str) -> Sample | ListRoots:
    return ListRoots()


@mcp.tool()
def run(task: str, info: Annotated[object, Resolve(context_of)]) -> str:
    """Run."""
    return task
