# expect: MCPD006
# start: setup()
"""Tools added inside a function nobody calls at import register when it is called: the broken
one fails then."""
from mcp.server import MCPServer

mcp = MCPServer("Late")


@mcp.tool()
def early(title: str) -> str:
    """Registered at import."""
    return title


def setup() -> None:
    @mcp.tool()
    def late(_secret: str) -> str:
        """Fails T2 when `setup()` runs."""
        return _secret
