# expect: ok
"""`@staticmethod` over a wraps decorator: bound through an instance, nothing is dropped."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Static")


def traced(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


class Catalog:
    @staticmethod
    @traced
    def lookup(title: str) -> int:
        return 3


catalog = Catalog()


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(catalog.lookup)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
