"""The tools of the journal, listed once for the server to register."""
from typing import Annotated

from mcp.server.mcpserver import Resolve


def journal_path(author: str) -> str:
    return f"/journal/{author}"


def shelf(writer: str) -> str:
    return f"/shelf/{writer}"


def list_entries(author: str, path: Annotated[str, Resolve(shelf)]) -> list[str]:
    """`shelf` asks for `writer`, which is not an argument of this tool."""
    return [path]


def count_entries(author: str, path: Annotated[str, Resolve(journal_path)]) -> int:
    """Fine."""
    return len(path)


ALL_TOOLS = (list_entries, count_entries)
