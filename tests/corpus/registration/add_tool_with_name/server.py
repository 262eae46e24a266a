# expect: ok
"""`server.add_tool(fn, name=...)`, and add_tool without a name."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Reg")


def check(title: str) -> int:
    return 1


def reserve_impl(title: str, n: Annotated[int, Resolve(check)]) -> str:
    return f"{title} {n}"


def status(title: str) -> str:
    return title


mcp.add_tool(reserve_impl, name="reserve_book")
mcp.add_tool(status)
