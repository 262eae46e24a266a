# expect: MCPD004
"""`Elicit[A] | Elicit[B]`: two distinct question arms."""

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


def who_or_ok(task: str) -> Elicit[Ok] | Elicit[Name]:
    return Elicit("Go?", Ok)


@mcp.tool()
def run(task: str, answer: Annotated[Ok, Resolve(who_or_ok)]) -> str:
    """Run."""
    return task
