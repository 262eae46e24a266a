"""Search tools."""
from typing import Annotated

from mcp.server.mcpserver import Resolve


def index(language: str) -> list[str]:
    return []


def register_search(mcp) -> None:
    @mcp.tool()
    def search(query: str, idx: Annotated[list[str], Resolve(index)]) -> list[str]:
        """`index` needs `language`, which is no argument: R2."""
        return idx
