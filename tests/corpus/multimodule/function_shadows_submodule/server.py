# expect: ok
"""`app/check.py` defines `check`, and `app/__init__.py` does `from .check import check`:
`from app import check` is then the function, not the submodule."""
from typing import Annotated

from app import check

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Shadow")


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
