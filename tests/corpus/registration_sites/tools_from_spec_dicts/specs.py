"""The journal's tools, described for the server to register."""
from typing import Annotated

from mcp.server.mcpserver import Resolve


def lock(entry: str) -> str:
    return f"lock:{entry}"


def page(entry_id: str) -> str:
    return f"page {entry_id}"


def open_entry(entry_id: str, held: Annotated[str, Resolve(lock)]) -> str:
    """`lock` asks for `entry`: not an argument of this tool."""
    return held


def close_entry(entry_id: str, text: Annotated[str, Resolve(page)]) -> str:
    """Fine."""
    return text


JOURNAL_TOOLS = [
    {"func": open_entry, "name": "journal_open"},
    {"name": "journal_close", "func": close_entry},
]
