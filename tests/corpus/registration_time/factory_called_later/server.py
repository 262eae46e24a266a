# expect: ok
"""A server factory nobody calls at import: its server and tools do not exist yet."""
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
        """Never registered."""
        return "gone"

    return admin
