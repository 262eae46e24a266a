# expect: MCPD002
"""A decorated method, bound: the wrapper `(self, *args, **kwargs)` loses `self`, keeps `args`."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Svc")


def audited(fn):
    def wrapper(self, *args, **kwargs):
        return fn(self, *args, **kwargs)

    return wrapper


class Catalog:
    @audited
    def lookup(self, title: str) -> int:
        return 3


catalog = Catalog()


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(catalog.lookup)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
