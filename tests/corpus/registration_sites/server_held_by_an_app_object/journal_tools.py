"""Journal tools, registered on whatever server the application passes."""
from typing import Annotated

from mcp.server.mcpserver import Resolve


def journal(author: str) -> str:
    return f"/journal/{author}"


def register(server) -> None:
    @server.tool()
    def archive(author: str, _where: Annotated[str, Resolve(journal)]) -> str:
        """A resolved parameter starting with `_`: T2."""
        return author

    @server.tool()
    def browse(author: str, where: Annotated[str, Resolve(journal)]) -> list[str]:
        """Fine."""
        return [where]
