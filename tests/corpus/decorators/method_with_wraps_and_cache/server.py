# expect: ok
"""Bound methods behind functools.wraps and functools.cache: `(title)` after `self`, ids `Catalog.*`."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Svc")


def audited(fn):
    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        return fn(self, *args, **kwargs)

    return wrapper


class Catalog:
    @audited
    def lookup(self, title: str) -> int:
        return 3

    @functools.cache
    def price(self, title: str) -> float:
        return 9.5


catalog = Catalog()


@mcp.tool()
def reserve(
    title: str,
    n: Annotated[int, Resolve(catalog.lookup)],
    p: Annotated[float, Resolve(catalog.price)],
) -> str:
    """Reserve a book."""
    return f"{title} {n} {p}"
