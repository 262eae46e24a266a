# expect: ok
"""A TypeAliasType is not substituted by the SDK: `Either[InputRequiredResult]` has no arm it can see."""
from typing import Annotated, Optional, TypeVar, Union

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
from mcp_types import InputRequiredResult
from typing_extensions import TypeAliasType

T = TypeVar("T")
Either = TypeAliasType("Either", Union[T, int], type_params=(T,))
mcp = MCPServer("Alias")


def who(title: str) -> str:
    return "me"


@mcp.tool()
def lend(title: str, w: Annotated[str, Resolve(who)]) -> Either[InputRequiredResult]:
    """Lend a book."""
    return 1
