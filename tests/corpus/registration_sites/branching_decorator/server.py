# expect: ok
"""A decorator that branches on `iscoroutinefunction`: both branches return a `wraps`
wrapper, so the SDK reads the resolver's own signature through `__wrapped__`."""
import functools
import inspect
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Logged")


def logged(fn):
    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def async_wrapper(*args, **kwargs):
            return await fn(*args, **kwargs)

        return async_wrapper
    else:

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)

        return wrapper


@logged
def owner(user: str) -> str:
    return user.title()


@logged
async def quota(owner_name: Annotated[str, Resolve(owner)]) -> int:
    return len(owner_name)


@mcp.tool()
async def usage(user: str, left: Annotated[int, Resolve(quota)]) -> str:
    """Quota left."""
    return f"{user}: {left}"
