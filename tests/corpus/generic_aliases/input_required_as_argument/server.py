# expect: MCPD005
"""`Either = Union[T, int]` used as `-> Either[InputRequiredResult]`: the argument becomes the arm."""
from typing import Annotated, Optional, TypeVar, Union

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
from mcp_types import InputRequiredResult

T = TypeVar("T")
Either = Union[T, int]
mcp = MCPServer("Alias")


def who(title: str) -> str:
    return "me"


@mcp.tool()
def lend(title: str, w: Annotated[str, Resolve(who)]) -> Either[InputRequiredResult]:
    """Lend a book."""
    return 1
