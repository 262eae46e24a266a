# expect: ok
"""A tool wrapped by a `functools.wraps` decorator under `@mcp.tool()`: the SDK reads the
signature and hints through `__wrapped__`."""
import functools
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Wrapped")
F = TypeVar("F", bound=Callable[..., Any])


def logged(fn: F) -> F:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def check(title: str) -> int:
    return 1


@mcp.tool()
@logged
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
