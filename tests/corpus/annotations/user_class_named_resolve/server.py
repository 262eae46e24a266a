# expect: ok
"""A project class called `Resolve` is not the SDK's marker: the parameter stays a tool argument."""
from typing import Annotated

from mcp.server import MCPServer

mcp = MCPServer("NotResolve")


class Resolve:
    def __init__(self, fn: object) -> None:
        self.fn = fn


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book; `n` is an ordinary argument here."""
    return f"{title} {n}"
