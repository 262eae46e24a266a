# expect: MCPD006
# start: app = main_server()
"""`def register_tools(mcp)` without an annotation: the server comes from the factory that
calls it."""
from mcp.server import MCPServer


def register_tools(mcp):
    @mcp.tool()
    async def hello(name: str) -> str:
        """Say hello."""
        return f"Hello, {name}!"

    @mcp.tool()
    async def secret(_token: str) -> str:
        """T2 when registered."""
        return "no"


def main_server() -> MCPServer:
    app = MCPServer("Hello")
    register_tools(app)
    return app
