# expect: ok
"""`main_setup()` at module level calls `install()`, which registers: transitively at import."""
from mcp.server import MCPServer

mcp = MCPServer("Chain")


def lookup(title: str) -> str:
    """Look a title up."""
    return title


def install(server: MCPServer) -> None:
    server.add_tool(lookup)


def main_setup() -> None:
    install(mcp)


main_setup()
