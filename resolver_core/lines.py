"""What a line is, for every position mcpdeps reads or writes: the tokenizer's notion.

Python's tokenizer (and so `ast` positions), the Language Server Protocol and editors end a
line at "\\r\\n", "\\r" or "\\n" only. `str.splitlines` also ends one at a form feed,
"\\x0b", "\\x1c" to "\\x1e", "\\x85", U+2028 and U+2029, all of which may sit in a comment,
a string or (the form feed) indentation; counted its way, every position after them was off
(a fix turning `return` into `reurn`, a suppress comment inserted mid-line). Everything that
splits a text into lines or maps a line to an offset goes through here.
"""

from __future__ import annotations

import re

from .patterns import compiled_when_used

_BREAK = compiled_when_used(r"\r\n|\r|\n")
_OTHER_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""What `str.splitlines` takes for a line break and the tokenizer does not."""


def has_other_breaks(text: str) -> bool:
    """Whether `str.splitlines` would count this text's lines differently.

    One `in` per character, not a pattern of the eight: `in` scans for one character at
    memory speed (and answers at once for one wider than any of the text's), where `re`
    tested each character against the set, 3% of a cold run's instructions."""
    return any(c in text for c in _OTHER_BREAKS)


def split_lines(text: str, keepends: bool = False) -> list[str]:
    """`text.splitlines(keepends)`, with lines ended only by "\\r\\n", "\\r" and "\\n"."""
    if not has_other_breaks(text):
        return text.splitlines(keepends)  # the same lines, split in C
    if keepends:
        lines = [m.group() for m in re.finditer(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)]
        return lines
    lines = _BREAK().split(text)
    if lines and lines[-1] == "":
        lines.pop()  # a final line break ends the last line; it does not start one
    return lines


def line_starts(text: str) -> list[int]:
    """The offset of each line's first character, and `len(text)` after the last line."""
    starts = [0]
    for line in split_lines(text, keepends=True):
        starts.append(starts[-1] + len(line))
    return starts
