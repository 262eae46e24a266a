"""Tool functions keyed by the names the server publishes."""
from typing import Annotated

from mcp.server.mcpserver import Resolve


def index_of(query: str) -> list[str]:
    return [query]


def search(query: str, _hits: Annotated[list[str], Resolve(index_of)]) -> int:
    """A resolved parameter starting with `_`: T2."""
    return len(_hits)


def recent(limit: int, hits: Annotated[list[str], Resolve(index_of)], query: str = "") -> list[str]:
    """Fine."""
    return hits[:limit]


TOOLS = {"journal_search": search, "journal_recent": recent}
