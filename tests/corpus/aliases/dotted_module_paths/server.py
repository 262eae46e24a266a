# expect: ok
"""`import mcp.server.mcpserver` and fully dotted names everywhere."""
import typing

import mcp.server.mcpserver

app = mcp.server.mcpserver.MCPServer("Dotted")


def check(title: str, ctx: mcp.server.mcpserver.Context) -> int:
    return len(title)


@app.tool()
def size(title: str, n: typing.Annotated[int, mcp.server.mcpserver.Resolve(check)]) -> int:
    """Size of a title."""
    return n
