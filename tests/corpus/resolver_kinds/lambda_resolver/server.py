# expect: ok
"""Lambdas as resolvers: their parameters can only be matched by name."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Text")

upper = lambda text: text.upper()  # noqa: E731


@mcp.tool()
def shout(
    text: str,
    loud: Annotated[str, Resolve(upper)],
    size: Annotated[int, Resolve(lambda text: len(text))],
) -> str:
    """Shout a text."""
    return f"{loud} ({size})"
