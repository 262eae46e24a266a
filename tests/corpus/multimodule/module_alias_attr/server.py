# expect: ok
"""`import app.deps as d` then `d.check`, and `import app.deps` then `app.deps.check`."""
from typing import Annotated

import app.deps
import app.deps as d

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Pkg")


@mcp.tool()
def reserve(
    title: str,
    user: str,
    stock: Annotated[int, Resolve(d.check_stock)],
    who: Annotated[str, Resolve(app.deps.current_user)],
) -> str:
    """Reserve a book."""
    return f"{who}: {title} {stock}"
