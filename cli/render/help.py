"""`--help` that never cuts an option name and shows every word as written.

typer's rich help lays options out in a table of five columns; below about 100 columns
rich shrinks them until names like `--output-format` end in `…`. And it reads every help
text as rich markup, so `[tool.mcpdeps]` silently disappeared. Here the click command tree
is built once (what `typer.Typer.__call__` does too) and adjusted before it runs: on a
terminal narrower than `RICH_HELP_WIDTH`, click's plain help (names in full, text wrapped
under them); otherwise rich help with every help text escaped, so no text is markup.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

RICH_HELP_WIDTH = 100
"""From this width on, typer's rich panels fit every option of every command uncut."""

HELP_FLAGS = ("--help", "-h")


def wants_help(argv: Sequence[str]) -> bool:
    """Help is printed for `--help`, and for a group called without a command (`mcpdeps`, `mcpdeps new`)."""
    return any(a in HELP_FLAGS for a in argv) or len(argv) == 0 or list(argv) == ["new"]


def prepare_help(command: Any) -> None:
    """Choose the help style for this terminal and make every help text literal in it."""
    from rich.console import Console
    from rich.markup import escape

    rich = Console().width >= RICH_HELP_WIDTH
    for cmd in _walk(command):
        if not rich:
            cmd.rich_markup_mode = None
            continue
        cmd.help = escape(cmd.help) if cmd.help else cmd.help
        cmd.short_help = escape(cmd.short_help) if cmd.short_help else cmd.short_help
        for param in cmd.params:
            text = getattr(param, "help", None)
            if text:
                param.help = escape(text)


def _walk(command: Any) -> Iterator[Any]:
    """The command and its subcommands (typer's groups keep them in `commands`, as click's do)."""
    yield command
    for sub in (getattr(command, "commands", None) or {}).values():
        yield from _walk(sub)
