# expect: ok
"""`import mcp.server.mcpserver as ms`: ms.MCPServer, ms.Resolve, ms.Context."""
from typing import Annotated

import mcp.server.mcpserver as ms

app = ms.MCPServer("Alias")


def check(title: str, ctx: ms.Context) -> int:
    return len(title)


@app.tool()
def size(title: str, n: Annotated[int, ms.Resolve(check)]) -> int:
    """Size of a title."""
    return n
