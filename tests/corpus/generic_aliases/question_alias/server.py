# expect: MCPD004
"""`Ask = Union[Elicit[Choice], T]` used as `-> Ask[Sample]`: two question arms once substituted."""
from typing import Annotated, TypeVar, Union

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve, Sample

T = TypeVar("T")
mcp = MCPServer("Ask")


class Choice(BaseModel):
    ok: bool


Ask = Union[Elicit[Choice], T]


def confirm(title: str) -> Ask[Sample]:
    return Elicit("Confirm?", Choice)


@mcp.tool()
def buy(title: str, c: Annotated[Choice, Resolve(confirm)]) -> str:
    """Buy a book."""
    return title
