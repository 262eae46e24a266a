# expect: ok
"""A tool parameter called `ctx` without annotation is an ordinary argument (in the schema),
so a resolver's unannotated `ctx` matches it by name."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Ctx")


def tag(ctx) -> str:  # noqa: ANN001
    return f"#{ctx}"


@mcp.tool()
def label(title: str, ctx, t: Annotated[str, Resolve(tag)]) -> str:  # noqa: ANN001
    """Label a title."""
    return f"{title} {t}"
