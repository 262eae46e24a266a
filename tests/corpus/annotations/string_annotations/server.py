# expect: ok
"""Quoted annotations, including a forward reference to a resolver defined below."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Strings")


def first(n: "Annotated[int, Resolve(second)]") -> int:
    return n + 1


def second(title: "str") -> int:
    return len(title)


@mcp.tool()
def reserve(title: "str", n: "Annotated[int, Resolve(first)]") -> "str":
    """Reserve a book."""
    return str(n)
