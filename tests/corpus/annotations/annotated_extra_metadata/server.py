# expect: ok
"""Extra metadata around Resolve in the same Annotated (Field, strings): first Resolve wins."""
from typing import Annotated

from pydantic import Field

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Meta")


def check(title: str) -> int:
    return 1


def other(title: str) -> int:
    return 2


@mcp.tool()
def reserve(
    title: Annotated[str, Field(description="The book title", min_length=1)],
    n: Annotated[int, "doc", Resolve(check), Resolve(other)],
) -> str:
    """Reserve a book."""
    return f"{title} {n}"
