"""Journal tools, collected by `@journal_tool`."""
from typing import Annotated

from mcp.server.mcpserver import Resolve

from collect import journal_tool


def tags_of(entry: str) -> list[str]:
    return [entry]


@journal_tool
def tag_entry(entry: str, tags: Annotated[list[str], Resolve(tags_of)] | None) -> str:
    """`Resolve` inside a union: R3."""
    return entry


@journal_tool
def show_tags(entry: str, tags: Annotated[list[str], Resolve(tags_of)]) -> list[str]:
    """Fine."""
    return tags
