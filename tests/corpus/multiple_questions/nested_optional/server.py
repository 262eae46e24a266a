# expect: MCPD004
"""`Optional[Union[Elicit[A], ListRoots]]` on a resolver below the tool's resolver."""
from typing import Optional, Union

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


def inner(task: str) -> Optional[Union[Elicit[Ok], ListRoots]]:  # noqa: UP007, UP045
    return None


def outer(v: Annotated[Ok, Resolve(inner)]) -> str:
    return "x"


@mcp.tool()
def run(task: str, info: Annotated[str, Resolve(outer)]) -> str:
    """Run."""
    return info
