"""A server left on the SDK's default, process-local request-state key: `--workers 2` must refuse it."""

from mcp.server import MCPServer

mcp = MCPServer("Solo")


@mcp.tool()
def ping() -> str:
    return "pong"
