"""Lint before import: a server the SDK would refuse (or mis-serve) never starts.

Importing user code runs registration, and the SDK stops at the first bad tool
with a traceback; linting first shows every problem at once, with locations,
in the same format as `mcpdeps lint`, and exits 1 before a port is bound.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from rich.console import Console

BLOCKING = frozenset({"error"})
"""Severities that stop `serve`: what the SDK refuses at registration, and hidden `Resolve`s."""


def _lint_api() -> tuple[Any, Any] | None:
    """`lint_rules.lint` and `mcpdeps.cli.lint.render_text.render_diagnostics`, or None while they do not exist."""
    try:
        from mcpdeps.cli.lint.render_text import render_diagnostics
        from mcpdeps.lint_rules import lint
    except ImportError:
        return None
    return lint, render_diagnostics


def lint_gate(path: Path, console: Console, *, refusal: str = "mcpdeps serve: not starting") -> bool:
    """Lint the server's module graph; print and return False when it must not start.

    `refusal` names what is not done (`call` does not call; `serve` does not start).
    Paths are shown relative to the current folder, as `mcpdeps lint` would show them.
    """
    api = _lint_api()
    if api is None:
        console.print("[dim]lint unavailable in this build; starting without it[/dim]")
        return True
    lint, render_diagnostics = api
    result = lint([shown_path(path)])
    blocking = [d for d in result.diagnostics if d.severity in BLOCKING]
    if not blocking:
        _mention(result.diagnostics, console)
        return True
    render_diagnostics(result, console=console)
    codes = ", ".join(sorted({d.code for d in blocking}))
    console.print(
        f"[bold red]{refusal}[/]: {len(blocking)} error(s) ({codes}) in the server's "
        "tools and resolvers. Fix them, or pass --no-lint to let the SDK decide."
    )
    return False


def shown_path(path: Path) -> Path:
    """The file as the user would write it: relative to the current folder (`../shop/server.py`)."""
    try:
        return Path(os.path.relpath(path))
    except ValueError:  # another drive on Windows
        return path


def _mention(diagnostics: list[Any], console: Console) -> None:
    """Warnings do not stop the server, but the user should see them once, one line each."""
    from mcpdeps.cli.lint.render_text import concise_line
    from rich.text import Text

    for d in diagnostics:
        console.print(Text(concise_line(d), style="yellow"), soft_wrap=True, highlight=False)
