# expect: MCPD006
# start: later()
"""A project decorator that registers what it decorates (`mcp.add_tool(fn)` in its body), also
through a factory that passes the name; `later()` registers `gamma` when it is called (T2)."""
from mcp.server import MCPServer

mcp = MCPServer("Plugins")


def tool(fn):
    mcp.add_tool(fn)
    return fn


def named(name: str):
    def decorate(fn):
        mcp.add_tool(fn, name=name)
        return fn

    return decorate


@tool
def alpha(title: str) -> str:
    """Registered by `@tool`."""
    return title


@named("beta_tool")
def beta(count: int) -> int:
    """Registered as `beta_tool`."""
    return count


def gamma(_secret: int) -> int:
    """Fails T2 when `later()` registers it."""
    return 1


def later() -> None:
    tool(gamma)
