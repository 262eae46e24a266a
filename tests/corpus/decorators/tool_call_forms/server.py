# expect: ok
"""`mcp.tool()(traced(find))` keeps `find`; `mcp.add_tool(plain(count), name=...)` gets the wrapper's
parameters."""
import functools

from mcp.server import MCPServer

mcp = MCPServer("Forms")


def traced(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


def plain(fn):
    def wrapper(text: str) -> int:
        return fn(text, 1)

    return wrapper


def find(query: str, limit: int = 5) -> str:
    """Find things."""
    return query


def count(text: str, step: int) -> int:
    """Count things."""
    return len(text) * step


mcp.tool()(traced(find))
mcp.add_tool(plain(count), name="count")
