# expect: ok
"""A call inside a class body runs when the class is defined, at import."""
from mcp.server import MCPServer

mcp = MCPServer("Plugin")


def install() -> None:
    @mcp.tool()
    def plugin_tool(title: str) -> str:
        """Registered while the class body runs."""
        return title


class Plugin:
    install()
