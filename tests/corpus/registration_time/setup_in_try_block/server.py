# expect: ok
"""A setup call inside `try:` at module level runs at import like any other statement."""
from mcp.server import MCPServer

mcp = MCPServer("Try")


def setup() -> None:
    @mcp.tool()
    def ping(title: str) -> str:
        """Ping."""
        return title


try:
    setup()
except ImportError:
    pass
