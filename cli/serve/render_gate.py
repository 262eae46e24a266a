"""The lint gate on a terminal: `gate.lint_verdict` printed the way `mcpdeps lint` prints.

Shared by `serve` and `call` (in-process), so both refuse the same servers with the same words.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.text import Text

from ..lint.render_text import concise_line, render_diagnostics
from .gate import GateVerdict, lint_verdict


def lint_gate(path: Path, console: Console, *, refusal: str = "mcpdeps serve: not starting") -> bool:
    """Lint the server's module graph; print and return False when it must not start.

    `refusal` names what is not done (`call` does not call; `serve` does not start).
    """
    verdict = lint_verdict(path)
    render_verdict(verdict, console, refusal=refusal)
    return verdict.passes


def render_verdict(verdict: GateVerdict, console: Console, *, refusal: str) -> None:
    """A refusal: every diagnostic in full, then why nothing starts; a pass: its warnings, one line each."""
    if verdict.passes:
        for d in verdict.result.diagnostics:
            console.print(Text(concise_line(d), style="yellow"), soft_wrap=True, highlight=False)
        return
    render_diagnostics(verdict.result, console=console)
    console.print(
        f"[bold red]{refusal}[/]: {len(verdict.blocking)} error(s) ({', '.join(verdict.codes)}) in the "
        "server's tools and resolvers. Fix them, or pass --no-lint to let the SDK decide."
    )
