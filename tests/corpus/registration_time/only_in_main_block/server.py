# expect: MCPD006
# start: setup()
"""`if __name__ == "__main__": setup()` runs when the file is the program: its registration
fails then (a lambda with an `_` parameter)."""
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
