# expect: ok
"""`Elicit[T] | T | None`: one question arm among other arms is fine."""
from typing import Annotated, Optional, Union

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve

mcp = MCPServer("Ask")


class Name(BaseModel):
    name: str


def ask_name(user: str) -> Union[Name, Elicit[Name], None]:  # noqa: UP007
    return Name(name=user) if user else Elicit("Your name?", Name)


def ask_again(user: str) -> Optional[Elicit[Name]]:  # noqa: UP045
    return None if user else Elicit("Your name, please?", Name)


@mcp.tool()
def greet(user: str, who: Annotated[Name, Resolve(ask_name)], again: Annotated[Name, Resolve(ask_again)]) -> str:
    """Greet."""
    return who.name
