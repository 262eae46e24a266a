"""Text from files and names inside a rich markup string: terminal-safe first, then markup-safe.

Apart from `cli/printable.py` because that one is imported by every engine (through
`cli/errors.py`), which must not reach rich.
"""

from __future__ import annotations

from rich.markup import escape

from ..printable import printable


def markup(text: str) -> str:
    """`text` for a rich markup string: escaped for the terminal, then for rich's `[...]`."""
    return escape(printable(text))
