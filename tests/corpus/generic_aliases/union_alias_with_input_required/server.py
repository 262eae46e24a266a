# expect: MCPD005
"""`Res = Union[InputRequiredResult, T]` used as `-> Res[str]`: typing substitutes, the arm stays."""
from typing import Annotated, Optional, TypeVar, Union

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
from mcp_types import InputRequiredResult

T = TypeVar("T")
Res = Union[InputRequiredResult, T]
mcp = MCPServer("Alias")


def who(title: str) -> str:
    return "me"


@mcp.tool()
def lend(title: str, w: Annotated[str, Resolve(who)]) -> Res[str]:
    """Lend a book."""
    return w
