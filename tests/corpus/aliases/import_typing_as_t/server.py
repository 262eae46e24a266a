# expect: ok
"""`import typing as t` and `t.Annotated`, `t.Optional`."""
import typing as t

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Alias")


def check(title: str) -> int:
    return len(title)


@mcp.tool()
def size(title: str, n: t.Annotated[int, Resolve(check)], note: t.Optional[str] = None) -> int:  # noqa: UP045
    """Size of a title."""
    return n
