# expect: ok
"""A decorator's body runs when it is applied: a registration function called from it runs at import."""
from mcp.server import MCPServer

mcp = MCPServer("Deco")


def install_ping() -> None:
    @mcp.tool()
    def ping(title: str) -> str:
        """Registered while `@with_ping` is applied."""
        return title


def with_ping(fn):
    install_ping()
    return fn


@with_ping
def helper(x: int) -> int:
    return x


@mcp.tool()
def echo(title: str) -> str:
    """Registered at import."""
    return helper(len(title)) and title
