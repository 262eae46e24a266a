# expect: MCPD007
"""`Resolve(operator.itemgetter("title"))`: a C callable that inspect.signature does not support."""
import operator
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("T10")


@mcp.tool()
def pick(title: str, v: Annotated[Any, Resolve(operator.itemgetter("title"))]) -> str:
    """Pick a field."""
    return title
