# expect: MCPD002
"""Hints are not read through a functools.partial: its Context parameter is unclassifiable."""
import functools
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("R2")


def tagged(tag: str, ctx: Context, title: str) -> str:
    return f"{tag}:{title}"


@mcp.tool()
def label(title: str, text: Annotated[str, Resolve(functools.partial(tagged, "book"))]) -> str:
    """Label a title."""
    return text
