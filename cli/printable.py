"""Text from files and file names, made safe to print on a terminal.

A file name or a string in a user's source can hold anything: `ESC ] 0 ; ... BEL` retitles
the terminal, `ESC [2J` clears it, a newline splits one report line into two (so a name
can forge a diagnostic line), a right-to-left override reorders what is shown. Every
human format escapes control and format characters the way Python's `repr` writes them
(`\\x1b`, `\\n`, `\\u202e`); the `github` format has its own encoding, and JSON, SARIF,
DOT and Mermaid quote their strings themselves. No rich here: `cli/errors.py`, which every
engine imports, uses it; `cli/render/markup.py` adds rich's markup escape for the renderers.
"""

from __future__ import annotations

import unicodedata

_UNSAFE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Control, format (bidi overrides, zero-width), surrogate and line/paragraph separators."""
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, kept by surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    return _NAMED.get(ch) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def printable(text: str) -> str:
    """`text` with every control, format and undecodable character written as an escape."""
    if text.isascii() and text.isprintable():
        return text  # the common case, in one C-speed pass
    return "".join(_escape(ch) if unicodedata.category(ch) in _UNSAFE else ch for ch in text)


def printable_line(text: str) -> str:
    """A source line for a code frame: tabs are kept (they are layout), the rest escaped."""
    return "\t".join(printable(part) for part in text.split("\t"))
