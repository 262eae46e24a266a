"""Tools registered by a class given the server."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def language(locale: str) -> str:
    return locale


class InfoTools:
    def __init__(self, mcp: MCPServer) -> None:
        self.mcp = mcp

    def register_tools(self) -> None:
        @self.mcp.tool()
        def info(topic: str, lang: Annotated[str, Resolve(language)]) -> str:
            """`language` wants `locale`, no argument of this tool: R2."""
            return topic

        @self.mcp.tool()
        def topics(prefix: str) -> list[str]:
            """Fine."""
            return [prefix]
