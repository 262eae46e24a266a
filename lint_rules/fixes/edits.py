"""Text edits: the contract's `Edit`s computed from a before/after pair, and applied back.

Stdlib only. Fixers rewrite code with libcst (which keeps formatting), then
`edits_between` turns the before/after texts into the few small replacements
the JSON/SARIF `fix` fields list; `--fix` applies those same edits, so what
the report promises is exactly what gets written. Columns are 1-based
characters; an edit may end at (last line + 1, column 1), the end of the text.
"""

from __future__ import annotations

import bisect
import difflib
import functools
from collections.abc import Iterable, Sequence

from ...resolver_core.diagnostics import Edit
from ...resolver_core.lines import line_starts, split_lines


class LineIndex:
    """Converts between 1-based (line, column) positions and string offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)

    def offset(self, line: int, column: int) -> int:
        if line > len(self.starts) - 1:
            return len(self.text)
        return min(self.starts[line - 1] + column - 1, len(self.text))

    def position(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self.starts[lo] + 1


def edits_between(path: str, before: str, after: str) -> list[Edit]:
    """Small replacements that turn `before` into `after`: changed lines, then changed characters in them.

    Character runs that stay equal over fewer than `MIN_EQUAL` characters are folded into
    the surrounding edit, so an edit is a readable piece of code, not scattered letters.
    Only the lines between the common head and tail are compared line by line: `difflib`
    over a whole file of repeated lines (`@mcp.tool()`, `return x`) took time quadratic in
    its length, once per fix (a file of 400 fixable tools: 150 s).
    """
    index = _index_of(before)
    start, end_before, end_after = _changed_region(before, after, index)
    old_lines = split_lines(before[start:end_before], keepends=True)
    new_lines = split_lines(after[start:end_after], keepends=True)
    starts = [start]
    for text in old_lines:
        starts.append(starts[-1] + len(text))
    edits: list[Edit] = []
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        old, new = "".join(old_lines[i1:i2]), "".join(new_lines[j1:j2])
        base = starts[i1]
        for o1, o2, n1, n2 in _char_changes(old, new):
            line, column = index.position(base + o1)
            end_line, end_column = index.position(base + o2)
            edits.append(
                Edit(
                    path=path,
                    line=line,
                    column=column,
                    end_line=end_line,
                    end_column=end_column,
                    content=new[n1:n2],
                )
            )
    return edits


@functools.lru_cache(maxsize=4)
def _index_of(text: str) -> LineIndex:
    """One file's `LineIndex`, kept while its fixes are computed (every fix diffs the same text)."""
    return LineIndex(text)


def _changed_region(before: str, after: str, index: LineIndex) -> tuple[int, int, int]:
    """(start, end in `before`, end in `after`) of the lines that differ: the common head and
    tail, cut at line starts of `before`, left out."""
    head = _common_prefix(before, after)
    tail = _common_prefix(before[head:][::-1], after[head:][::-1])
    start = index.starts[bisect.bisect_right(index.starts, head) - 1]
    changed_end = len(before) - tail
    at = bisect.bisect_left(index.starts, changed_end)
    end_before = index.starts[at] if at < len(index.starts) else len(before)
    return start, end_before, len(after) - (len(before) - end_before)


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix (halving, with comparisons done in C)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


MIN_EQUAL = 3


def _char_changes(old: str, new: str) -> list[tuple[int, int, int, int]]:
    """(old start, old end, new start, new end) of each changed run of characters."""
    changes: list[list[int]] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, o1, o2, n1, n2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if changes and o1 - changes[-1][1] < MIN_EQUAL and n1 - changes[-1][3] < MIN_EQUAL:
            changes[-1][1], changes[-1][3] = o2, n2
        else:
            changes.append([o1, o2, n1, n2])
    return [(a, b, c, d) for a, b, c, d in changes]


def span(index: LineIndex, edits: Iterable[Edit]) -> tuple[int, int]:
    """The offset range a group of edits touches (to keep two fixes from overlapping)."""
    offsets = [(index.offset(e.line, e.column), index.offset(e.end_line, e.end_column)) for e in edits]
    return min(s for s, _ in offsets), max(e for _, e in offsets)


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Apply non-overlapping edits to one file's text (from the end, so offsets stay valid)."""
    index = LineIndex(text)
    ranges = sorted(
        ((index.offset(e.line, e.column), index.offset(e.end_line, e.end_column), e.content) for e in edits),
        reverse=True,
    )
    for start, end, content in ranges:
        text = text[:start] + content + text[end:]
    return text
