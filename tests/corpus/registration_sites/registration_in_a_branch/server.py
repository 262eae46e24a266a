# expect: MCPD006
# start: mcp = build(admin=True)
"""A tool registered only when a flag is set: it fails the day that branch runs."""
from mcp.server import MCPServer


def build(*, admin: bool = False) -> MCPServer:
    mcp = MCPServer("Flags")

    @mcp.tool()
    def status(service: str) -> str:
        """Always registered."""
        return "up"

    if admin:

        @mcp.tool()
        def restart(service: str, _force: bool = False) -> str:
            """Only with admin=True: T2 then."""
            return "restarted"

    return mcp
