# expect: MCPD006
# start: admin = build_admin()
"""A server factory nobody calls at import: its tools register when an entry point calls it
(at start-up), and the SDK refuses the broken one then."""
from mcp.server import MCPServer

mcp = MCPServer("Main")


@mcp.tool()
def ping(title: str) -> str:
    """Registered at import."""
    return title


def build_admin() -> MCPServer:
    admin = MCPServer("Admin")

    @admin.tool()
    def wipe(_everything: bool) -> str:
        """Registered by whoever calls `build_admin()`."""
        return "gone"

    return admin
