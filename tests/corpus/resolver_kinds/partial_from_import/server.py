# expect: ok
"""`from functools import partial`, binding two leading arguments."""
from functools import partial
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Greeter")


def salute(prefix: str, suffix: str, name: str) -> str:
    return f"{prefix} {name}{suffix}"


@mcp.tool()
def hello(name: str, line: Annotated[str, Resolve(partial(salute, "Hello", "!"))]) -> str:
    """Say hello."""
    return line
