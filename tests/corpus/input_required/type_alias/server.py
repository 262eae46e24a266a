# expect: MCPD005
"""A module-level alias `Answer = Union[InputRequiredResult, str]`."""
from typing import Union

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
from mcp.types import InputRequiredResult

mcp = MCPServer("R5")


def check(title: str) -> int:
    return 1

Answer = Union[InputRequiredResult, str]  # noqa: UP007


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> Answer:
    """Reserve."""
    return title
