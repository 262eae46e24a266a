# expect: ok
"""Tools added inside a function nobody calls at import are never registered (the broken one included)."""
from mcp.server import MCPServer

mcp = MCPServer("Late")


@mcp.tool()
def early(title: str) -> str:
    """Registered at import."""
    return title


def setup() -> None:
    @mcp.tool()
    def late(_secret: str) -> str:
        """Would fail T2, but never registers."""
        return _secret
