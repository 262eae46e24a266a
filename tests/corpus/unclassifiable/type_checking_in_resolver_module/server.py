# expect: MCPD002
"""The resolver's module imports Context only for type checkers (postponed annotations);
the tool's module is fine. The resolver's hints cannot be evaluated: `ctx` is unclassifiable."""
from typing import Annotated

from deps import request_tag

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


@mcp.tool()
def tag(title: str, t: Annotated[str, Resolve(request_tag)]) -> str:
    """Tag a title."""
    return t
