"""The `--fix` and `--diff` ends of `mcpdeps lint`: run the fix engine, write or show, report.

Messages about fixing go to stderr so that stdout stays the report (`--format
json` remains one JSON document) or, with `--stdin-filename`, the fixed source
(the way editors call formatters).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from mcpdeps.cli.errors import UserError
from mcpdeps.lint_rules import LintResult
from mcpdeps.lint_rules.fixes.engine import FixPlan, broken_by_fixes, plan_fixes, unified_diff, write_plan
from mcpdeps.lint_rules.settings import Settings
from rich.console import Console
from rich.syntax import Syntax
from rich.text import Text


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def checked_plan(
    paths: Sequence[str], settings: Settings, overrides: Mapping[Path, str] | None, cwd: Path
) -> FixPlan:
    """The fix engine's plan, refused (nothing written) if it would leave a file unparsable.

    `mcpdeps mcp`'s `fix` tool plans through here too, so it writes exactly what `--fix` writes.
    """
    plan = plan_fixes(paths, settings, overrides=overrides, cwd=cwd)
    broken = broken_by_fixes(plan)
    if broken:
        raise UserError(
            f"Fixing would have left {', '.join(sorted(broken))} unparsable, so nothing was written. "
            "This is a bug in mcpdeps; please report it with the file."
        )
    return plan


def _report_unsafe(plan: FixPlan, console: Console) -> None:
    """Name the fixes left out because they would have made a new error appear."""
    for d in plan.unsafe:
        console.print(
            Text(
                f"{d.path}:{d.line}:{d.column}: {d.code} was not fixed: the fix would make a new error appear "
                "(fix it by hand).",
                style="yellow",
            ),
            soft_wrap=True,
        )


def show_diff(
    paths: Sequence[str], settings: Settings, *, overrides: Mapping[Path, str] | None, cwd: Path
) -> int:
    """Print the fixes as a unified diff; exit code 1 when there is something to fix."""
    plan = checked_plan(paths, settings, overrides, cwd)
    text = unified_diff(plan)
    console = Console(highlight=False)
    if text and console.is_terminal:
        console.print(Syntax(text.rstrip("\n"), "diff", theme="ansi_dark", background_color="default"))
    elif text:
        sys.stdout.write(text)  # exact bytes, so `mcpdeps lint --diff | git apply` works
    stderr = Console(stderr=True, highlight=False)
    _report_unsafe(plan, stderr)
    stderr.print(
        Text(
            f"Would fix {_plural(plan.fixed, 'problem')} in {_plural(len(plan.changed()), 'file')}."
            if plan.fixed
            else "No fixes available.",
            style="bold",
        )
    )
    return 1 if text else 0


def apply_fixes(
    paths: Sequence[str],
    settings: Settings,
    *,
    overrides: Mapping[Path, str] | None,
    cwd: Path,
    stdin: str | None = None,
    stdin_encoding: str = "utf-8",
) -> LintResult:
    """Write the fixes (or print the fixed source of `stdin`, the `--stdin-filename`); return what is left."""
    plan = checked_plan(paths, settings, overrides, cwd)
    assert plan.result is not None
    stderr = Console(stderr=True, highlight=False)
    if stdin is not None:
        fixed = plan.texts.get(stdin, plan.originals.get(stdin, ""))
        sys.stdout.flush()
        sys.stdout.buffer.write(fixed.encode(stdin_encoding, "surrogateescape"))  # as read: BOM, cookie
        sys.stdout.buffer.flush()
        refused: list[str] = []
    else:
        refused = write_plan(plan, cwd)
    if plan.fixed:
        stderr.print(
            Text(
                f"Fixed {_plural(plan.fixed, 'problem')} in {_plural(len(plan.changed()) - len(refused), 'file')}.",
                style="bold green",
            )
        )
    _report_unsafe(plan, stderr)
    if refused:
        raise UserError(" ".join(f"{message}." for message in refused) + " Run `mcpdeps lint --fix` again.")
    return plan.result
