# expect: ok
"""Tool arguments named like BaseModel methods (`copy`, `schema`): the SDK aliases the field
internally but publishes and matches the plain names, so the resolver still gets them by name."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Shadow")


def label(copy: int, schema: str) -> str:
    return f"{schema}#{copy}"


@mcp.tool()
def render(copy: int, schema: str, text: Annotated[str, Resolve(label)]) -> str:
    """Render a label."""
    return text
