# expect: ok
# start: mcp = build_server(store={"dune": 3})
"""A factory never called at import: the store arrives as an argument, the resolvers are
closures over it (one resolving another), a marker is kept in a local alias, tool names
come from constants."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

LOOKUP = "lookup_stock"
RESERVE = "reserve_copy"


def normalise(title: str) -> str:
    return title.strip().lower()


def build_server(*, store: dict[str, int]) -> MCPServer:
    mcp = MCPServer("Closures")

    def inventory() -> dict[str, int]:
        return store

    def stock(
        title: Annotated[str, Resolve(normalise)], shelf: Annotated[dict[str, int], Resolve(inventory)]
    ) -> int:
        return shelf.get(title, 0)

    Stock = Annotated[int, Resolve(stock)]

    @mcp.tool(name=LOOKUP)
    def lookup(title: str, count: Stock) -> str:
        """How many copies are left."""
        return f"{title}: {count}"

    def reserve(title: str, count: Stock, copies: int = 1) -> str:
        """Reserve copies if there are enough."""
        return "ok" if count >= copies else "short"

    mcp.add_tool(reserve, name=RESERVE)
    return mcp
