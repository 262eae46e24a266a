# expect: MCPD002
# start: mcp = create_app("https://example.org")
"""A factory whose closure resolver asks for a parameter no tool argument provides (R2):
the SDK refuses the tool when the factory runs, at start-up."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def create_app(base_url: str) -> MCPServer:
    mcp = MCPServer("Remote")

    def endpoint(path: str) -> str:
        return base_url + path

    def session(url: Annotated[str, Resolve(endpoint)], token: str) -> dict[str, str]:
        return {"url": url, "token": token}

    @mcp.tool()
    def fetch(path: str, sess: Annotated[dict[str, str], Resolve(session)]) -> str:
        """Fetch a path."""
        return sess["url"]

    @mcp.tool()
    def ping(message: str) -> str:
        """Always fine."""
        return message

    return mcp
