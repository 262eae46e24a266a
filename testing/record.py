"""What one call did: its result, the questions asked in order, the rounds, each resolver's runs."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .answering import Question
from .naming import ResolverIndex, ResolverRef

if TYPE_CHECKING:
    from mcp_types import CallToolResult


class Runs(Mapping[str, int]):
    """How many times each resolver ran during a call, keyed by resolver id.

    Look up or compare by anything that names a resolver (the function, its qualname, its
    id): `call.runs[check_stock] == 1`, `call.runs == {"check_stock": 1, confirm_backorder: 2}`.
    A resolver of the server that did not run counts 0; a name that is no resolver is an error.
    """

    def __init__(self, counts: Mapping[str, int], index: ResolverIndex) -> None:
        self._counts = dict(counts)
        self._index = index

    def __getitem__(self, ref: ResolverRef) -> int:
        return self._counts.get(self._index.find(ref).id, 0)

    def __iter__(self) -> Iterator[str]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        wanted = {self._index.find(ref).id: count for ref, count in other.items()}
        ids = {rid for rid, count in self._counts.items() if count} | wanted.keys()
        return all(self._counts.get(rid, 0) == wanted.get(rid, 0) for rid in ids)

    def __repr__(self) -> str:
        return f"Runs({self._counts!r})"


@dataclass(frozen=True, slots=True)
class CallRecord:
    """The outcome of `client.call(...)`."""

    tool: str
    arguments: dict[str, Any]
    result: CallToolResult
    questions: list[Question]
    """Every question the tool's resolvers asked, in the order the client was asked them."""
    rounds: int
    """`tools/call` requests the call took: 1 on legacy; 1 + the rounds of questions on 2026-07-28."""
    runs: Runs
    protocol: str
    """The negotiated protocol version."""

    @property
    def text(self) -> str:
        """The text content of the result (an error's message when the tool failed)."""
        from mcp_types import TextContent

        return "\n".join(block.text for block in self.result.content if isinstance(block, TextContent))

    @property
    def is_error(self) -> bool:
        return bool(self.result.is_error)

    @property
    def structured(self) -> Any:
        """The structured content (a `-> str` tool's is `{"result": "..."}`)."""
        return self.result.structured_content
