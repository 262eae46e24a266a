# expect: ok
"""An `__init__.py` chain three levels deep, relative imports going up with `..`."""
from typing import Annotated

from company.shop.core.deps import delivery

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Nested")


@mcp.tool()
def order(title: str, when: Annotated[str, Resolve(delivery)]) -> str:
    """Order a book."""
    return when
