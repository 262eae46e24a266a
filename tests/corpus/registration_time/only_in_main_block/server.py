# expect: ok
"""`if __name__ == "__main__": setup()` does not run when the SDK imports the file."""
from mcp.server import MCPServer

mcp = MCPServer("Main")


@mcp.tool()
def early(title: str) -> str:
    """Registered at import."""
    return title


def setup() -> None:
    mcp.add_tool(lambda _x: _x, name="late")


if __name__ == "__main__":
    setup()
    mcp.run()
