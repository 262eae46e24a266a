# expect: MCPD003
"""`Union[Annotated[T, Resolve(f)], str]`."""
from typing import Annotated, Union

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R3")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Union[Annotated[int, Resolve(check)], str]) -> str:  # noqa: UP007
    """Reserve."""
    return title
