# expect: MCPD005
"""A TypeAliasType with type parameters: `Res[str]` forwards `__value__`, which holds the arm."""
from typing import Annotated, Optional, TypeVar, Union

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
from mcp_types import InputRequiredResult
from typing_extensions import TypeAliasType

T = TypeVar("T")
Res = TypeAliasType("Res", Union[InputRequiredResult, T], type_params=(T,))
mcp = MCPServer("Alias")


def who(title: str) -> str:
    return "me"


@mcp.tool()
def lend(title: str, w: Annotated[str, Resolve(who)]) -> Res[str]:
    """Lend a book."""
    return w
