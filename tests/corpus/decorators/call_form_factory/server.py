# expect: ok
"""`slow = retry(3)(fetch)` with update_wrapper: a factory applied by two calls."""
import functools

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Fetch")


def retry(times: int):
    def decorate(fn):
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)

        functools.update_wrapper(wrapper, fn)
        return wrapper

    return decorate


def fetch(url: str) -> str:
    return url


slow = retry(3)(fetch)


@mcp.tool()
def download(url: str, body: Annotated[str, Resolve(slow)]) -> str:
    """Download a page."""
    return body
