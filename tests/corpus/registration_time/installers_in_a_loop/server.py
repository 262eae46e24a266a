# expect: ok
"""`for install in (install_search, install_admin): install()` runs each listed installer."""
from mcp.server import MCPServer

mcp = MCPServer("Loop")


def install_search() -> None:
    @mcp.tool()
    def search(query: str) -> str:
        """Search."""
        return query


def install_admin() -> None:
    @mcp.tool()
    def stats(day: str) -> str:
        """Stats."""
        return day


for install in (install_search, install_admin):
    install()
