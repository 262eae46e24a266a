# expect: MCPD006
"""The same function, called at module level: its tools register at import (and T2 fires)."""
from mcp.server import MCPServer

mcp = MCPServer("Late")


@mcp.tool()
def early(title: str) -> str:
    """Registered at import."""
    return title


def setup() -> None:
    @mcp.tool()
    def late(_secret: str) -> str:
        """Fails T2."""
        return _secret


setup()
