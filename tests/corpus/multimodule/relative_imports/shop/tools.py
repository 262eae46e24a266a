from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from . import deps
from .deps import check_stock
from .models import Stock


def register(server: MCPServer) -> None:
    @server.tool()
    def order(
        title: str,
        stock: Annotated[Stock, Resolve(check_stock)],
        when: Annotated[str, Resolve(deps.delivery)],
    ) -> str:
        """Order a book."""
        return when
