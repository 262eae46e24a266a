# expect: MCPD001
# start: mcp = manager.server
"""A manager object whose method registers what it is given, under the name it is given:
`manager.register_tool("journal_read", read)` registers `read` as `journal_read` when that
line runs (after the resolvers are defined); R1 on `journal_read`."""
from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


class ServerManager:
    def __init__(self) -> None:
        self.server = MCPServer("Journal")

    def register_tool(self, name: str, handler: Callable[..., Any]) -> None:
        self.server.add_tool(handler, name=name)


def entry(entry_id: str, again: Annotated[str, Resolve(entry)]) -> str:
    return entry_id


def page(entry_id: str) -> str:
    return f"page {entry_id}"


def read(entry_id: str, text: Annotated[str, Resolve(entry)]) -> str:
    """A resolver that depends on itself: R1."""
    return text


def peek(entry_id: str, text: Annotated[str, Resolve(page)]) -> str:
    """Fine."""
    return text


manager = ServerManager()
manager.register_tool("journal_read", read)
manager.register_tool(handler=peek, name="journal_peek")
