"""A rich renderable with a hanging indent: wrapped lines stay under their block, unpadded.

rich's grids keep wrapped text in its column but pad every line to the column's width,
so piped output ends in spaces; `Text` wraps back to column 0. This wraps each line of
text at the space left after the prefix and indents the continuation lines, nothing more.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.console import Console, ConsoleOptions
from rich.segment import Segment
from rich.text import Text


class Hanging:
    """`prefix` before the first line, as many spaces before every other (wrapped) line."""

    def __init__(self, prefix: str | Text, lines: Sequence[Text], indent: int | None = None) -> None:
        self.prefix = prefix if isinstance(prefix, Text) else Text(prefix)
        self.lines = lines
        self.indent = len(self.prefix) if indent is None else indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        width = max(10, options.max_width - self.indent)
        first = True
        for line in self.lines:
            for piece in line.wrap(console, width, overflow="fold"):
                piece.rstrip()
                lead = self.prefix if first else Text(" " * self.indent)
                lead = Text.assemble(lead, " " * max(0, self.indent - len(lead)))
                yield from lead.render(console)
                yield from piece.render(console)
                yield Segment.line()
                first = False
