# expect: MCPD002
"""A resolver wrapped by a decorator that does not use functools.wraps: the SDK sees the
wrapper's `(*args, **kwargs)`, and `args` is no tool argument."""
from collections.abc import Callable
from typing import Any

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def traced(fn: Callable[..., Any]) -> Callable[..., Any]:
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
