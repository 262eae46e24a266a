# expect: ok
"""`mcp.tool(name=...)(fn)` and `mcp.tool()(fn)`: the decorator applied by a plain call."""

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Reg")


def check(title: str) -> int:
    return 1


def reserve_impl(title: str, n: Annotated[int, Resolve(check)]) -> str:
    return f"{title} {n}"


def count_impl(title: str, n: Annotated[int, Resolve(check)]) -> int:
    return n


mcp.tool(name="reserve_book")(reserve_impl)
mcp.tool()(count_impl)
