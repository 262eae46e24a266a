"""The `--fix` and `--diff` ends of `mcpdeps lint` on the terminal: show the diff, write, report.

Messages about fixing go to stderr so that stdout stays the report (`--format
json` remains one JSON document) or, with `--stdin-filename`, the fixed source
(the way editors call formatters). The plan is the engine's (`lint_rules.api.fix_plan`), its
outcome in words `fix.py`'s.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.syntax import Syntax
from rich.text import Text

from ...lint_rules import LintResult, api
from ...lint_rules.fixes.engine import FixPlan, unified_diff
from ...lint_rules.settings import Settings
from .fix import (
    diff_summary,
    fixed_summary,
    fixed_text,
    refused_error,
    unsafe_notes,
)


def _report_unsafe(plan: FixPlan, console: Console) -> None:
    for note in unsafe_notes(plan):
        console.print(Text(note, style="yellow"), soft_wrap=True)


def _planned(request: api.LintRequest, settings: Settings, unsafe: bool = False) -> FixPlan:
    """The engine's plan, with a progress bar on a terminal after a second (each pass re-lints)."""
    from .render_progress import lint_progress

    with lint_progress("fixing") as progress:
        return api.fix_plan(request, settings, unsafe=unsafe, progress=progress)


def show_diff(request: api.LintRequest, settings: Settings, *, unsafe: bool = False) -> int:
    """Print the fixes as a unified diff; exit code 1 when there is something to fix."""
    plan = _planned(request, settings, unsafe)
    text = unified_diff(plan)
    console = Console(highlight=False)
    if text and console.is_terminal:
        console.print(Syntax(text.rstrip("\n"), "diff", theme="ansi_dark", background_color="default"))
    elif text:
        sys.stdout.write(text)  # exact bytes, so `mcpdeps lint --diff | git apply` works
    stderr = Console(stderr=True, highlight=False)
    _report_unsafe(plan, stderr)
    stderr.print(Text(diff_summary(plan), style="bold"))
    return 1 if text else 0


def apply_fixes(
    request: api.LintRequest,
    settings: Settings,
    *,
    stdin: str | None = None,
    stdin_encoding: str = "utf-8",
    unsafe: bool = False,
) -> LintResult:
    """Write the fixes (or print the fixed source of `stdin`, the `--stdin-filename`); return what is left."""
    plan = _planned(request, settings, unsafe)
    assert plan.result is not None
    stderr = Console(stderr=True, highlight=False)
    if stdin is not None:
        sys.stdout.flush()
        # as read: BOM, coding cookie
        sys.stdout.buffer.write(fixed_text(plan, stdin).encode(stdin_encoding, "surrogateescape"))
        sys.stdout.buffer.flush()
        refused: list[str] = []
    else:
        refused = api.write_fixes(plan, request.cwd)
    summary = fixed_summary(plan, refused)
    if summary:
        stderr.print(Text(summary, style="bold green"))
    _report_unsafe(plan, stderr)
    if refused:
        raise refused_error(refused)
    plan.result.fixed = True
    return plan.result
