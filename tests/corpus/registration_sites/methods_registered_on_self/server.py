# expect: MCPD002
# start: app = JournalApp(); mcp = app.mcp
"""A class that builds its server in `__init__` and registers its own methods on it:
`self.mcp.add_tool(self.search)` and `self.mcp.tool(name=...)(self.recent)` register the
methods bound to the instance (no `self` in the schema); R2 on `search`."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def shelf(writer: str) -> str:
    return f"/shelf/{writer}"


def journal(author: str) -> str:
    return f"/journal/{author}"


class JournalApp:
    def __init__(self) -> None:
        self.mcp = MCPServer("Journal")
        self._register_tools()

    def _register_tools(self) -> None:
        self.mcp.add_tool(self.search)
        self.mcp.tool(name="journal_recent")(self.recent)

    def search(self, author: str, where: Annotated[str, Resolve(shelf)]) -> list[str]:
        """`shelf` asks for `writer`: not an argument of this tool."""
        return [where]

    def recent(self, author: str, where: Annotated[str, Resolve(journal)]) -> list[str]:
        """Fine."""
        return [where]
