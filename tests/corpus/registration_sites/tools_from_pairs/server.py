# expect: MCPD003
# start: mcp = build()
"""`for name, fn in (("a", f), ("b", g)): mcp.add_tool(fn, name=name)`: pairs written in place,
each function registered under the name beside it (R3 on `journal_tag`)."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve


def tags_of(entry: str) -> list[str]:
    return [entry]


def tag(entry: str, tags: Annotated[list[str], Resolve(tags_of)] | None) -> str:
    """`Resolve` inside a union: R3."""
    return entry


def untag(entry: str, tags: Annotated[list[str], Resolve(tags_of)]) -> str:
    """Fine."""
    return entry


def build() -> MCPServer:
    mcp = MCPServer("Journal")
    for name, fn in (("journal_tag", tag), ("journal_untag", untag)):
        mcp.add_tool(fn, name=name)
    return mcp
