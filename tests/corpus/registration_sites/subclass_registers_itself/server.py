# expect: MCPD002
"""A subclass of MCPServer that registers its tools on itself, in `__init__`."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def tax(country: str) -> float:
    return 0.2


class Shop(MCPServer):
    def __init__(self) -> None:
        super().__init__("Shop")

        @self.tool()
        def stock(item: str, rate: Annotated[float, Resolve(tax)]) -> int:
            """`tax` wants `country`, no argument of this tool: R2."""
            return 1

        @self.tool()
        def ping(message: str) -> str:
            """Fine."""
            return message


shop = Shop()
