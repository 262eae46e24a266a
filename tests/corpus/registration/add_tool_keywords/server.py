# expect: ok
"""`add_tool(fn=..., name=...)` with keyword arguments only."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Kw")


def check(title: str) -> int:
    return 1


def impl(title: str, n: Annotated[int, Resolve(check)]) -> str:
    return f"{title} {n}"


mcp.add_tool(fn=impl, name="reserve_book", description="Reserve a book.")
