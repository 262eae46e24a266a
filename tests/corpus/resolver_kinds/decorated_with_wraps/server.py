# expect: ok
"""The same decorator with functools.wraps: the SDK follows `__wrapped__` to `(title)`."""
import functools
from collections.abc import Callable
from typing import Any

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Wrapped")


def traced(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return wrapper


@traced
def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
