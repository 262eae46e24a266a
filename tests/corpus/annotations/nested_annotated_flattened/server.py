# expect: ok
"""`Annotated[Annotated[T, Resolve(f)], "doc"]` is flattened by Python into one top-level
Annotated: the marker is honoured (unlike `Annotated[Annotated[...] | None, ...]`)."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Nested")


def check(title: str) -> int:
    return 1


StockDep = Annotated[int, Resolve(check)]


@mcp.tool()
def reserve(title: str, n: Annotated[Annotated[int, Resolve(check)], "doc"], m: Annotated[StockDep, "more"]) -> str:
    """Reserve a book."""
    return f"{title} {n} {m}"
