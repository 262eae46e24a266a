"""Journal tools, grouped by what they may change."""
from typing import Annotated

from mcp.server.mcpserver import Resolve


def entry_text(entry_id: str) -> str:
    return f"text of {entry_id}"


def lock(entry: str) -> str:
    return f"lock:{entry}"


def read_entry(entry_id: str, text: Annotated[str, Resolve(lock)]) -> str:
    """`lock` asks for `entry`: not an argument of this tool."""
    return text


def write_entry(entry_id: str, body: str, text: Annotated[str, Resolve(entry_text)]) -> str:
    """Fine."""
    return body


READ = [read_entry]
WRITE = [write_entry]
