"""`mcpdeps migrate` on the terminal: the diff (stdout, `git apply`-able), the notes and the summary (stderr).

Exit code: 0 when everything was migrated; 1 when something is left to the user (a note) or,
with `--diff`, when there is something to change, as `lint --diff` does; 2 for bad input.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.text import Text

from ...lint_rules.fixes.engine import unified_diff, write_plan
from ...lint_rules.migration.files import MigrationPlan, plan_migration
from ..errors import UserError
from ..inputs import require_existing
from ..printable import printable


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def summary(result: MigrationPlan, *, written: bool) -> str:
    """What the run did (or, with `--diff`, would do), in one sentence."""
    changed = len(result.changed())
    if not changed:
        return f"Nothing to migrate in {_plural(result.files, 'file')}."
    verb = "Migrated" if written else "Would migrate"
    moved = f", {_plural(result.questions, 'question')} moved into resolvers" if result.questions else ""
    left = f"; {_plural(len(result.notes), 'place')} left for you (above)" if result.notes else ""
    return f"{verb} {_plural(changed, 'file')}{moved}{left}."


def run_migrate(targets: Sequence[str], *, diff: bool, exclude: Sequence[str]) -> int:
    cwd = Path.cwd()
    require_existing(targets, cwd)
    result = plan_migration(targets, cwd, exclude)
    stderr = Console(stderr=True, highlight=False)
    if diff:
        text = unified_diff(result.plan)
        if text:
            sys.stdout.write(text)
            sys.stdout.flush()
        refused: list[str] = []
    else:
        refused = write_plan(result.plan, cwd)
    for note in result.notes:
        stderr.print(Text(printable(str(note)), style="yellow"), soft_wrap=True)
    if refused:
        raise UserError(" ".join(f"{message}." for message in refused) + " Run `mcpdeps migrate` again.")
    stderr.print(Text(summary(result, written=not diff), style="bold"))
    return 1 if result.notes or (diff and result.changed()) else 0
