"""The `--fix` and `--diff` work of `mcpdeps lint`, for any front end: a checked plan, its outcome in words.

The fix engine (`lint_rules.fixes.engine`) plans edits; this module refuses a plan that would
leave a file unparsable and says in sentences what was and was not fixed. How
those sentences and the diff are shown is the front end's business (`render_fix.py` for the
terminal).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from ...lint_rules.fixes.engine import FixPlan, broken_by_fixes, plan_fixes
from ...lint_rules.settings import Settings
from ..errors import UserError


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def checked_plan(
    paths: Sequence[str],
    settings: Settings,
    overrides: Mapping[Path, str] | None,
    cwd: Path,
    progress: Callable[[int, int], None] | None = None,
    unsafe: bool = False,
) -> FixPlan:
    """The fix engine's plan, refused (nothing written) if it would leave a file unparsable.

    `mcpdeps mcp`'s `fix` tool plans through here too, so it writes exactly what `--fix` writes.
    """
    plan = plan_fixes(paths, settings, overrides=overrides, cwd=cwd, progress=progress, unsafe=unsafe)
    broken = broken_by_fixes(plan)
    if broken:
        raise UserError(
            f"Fixing would have left {', '.join(sorted(broken))} unparsable, so nothing was written. "
            "This is a bug in mcpdeps; please report it with the file."
        )
    return plan


def unsafe_notes(plan: FixPlan) -> list[str]:
    """One sentence per fix left out because it would have made a new error appear."""
    return [
        f"{d.path}:{d.line}:{d.column}: {d.code} was not fixed: the fix would make a new error appear "
        "(fix it by hand)."
        for d in plan.unsafe
    ]


def diff_summary(plan: FixPlan) -> str:
    """What `--diff` would fix, in one sentence."""
    if not plan.fixed:
        return "No fixes available."
    return f"Would fix {_plural(plan.fixed, 'problem')} in {_plural(len(plan.changed()), 'file')}."


def fixed_text(plan: FixPlan, path: str) -> str:
    """The fixed source of `path` (the `--stdin-filename` text), unchanged when nothing applied."""
    return plan.texts.get(path, plan.originals.get(path, ""))


def fixed_summary(plan: FixPlan, refused: Sequence[str]) -> str | None:
    """What `--fix` fixed in the files it wrote, in one sentence; None when it wrote nothing."""
    written = [p for p in plan.changed() if p not in plan.refused]
    fixed = sum(plan.fixed_in.get(p, 0) for p in written)
    if not fixed:
        return None
    return f"Fixed {_plural(fixed, 'problem')} in {_plural(len(written), 'file')}."


def refused_error(refused: Sequence[str]) -> UserError:
    """The error for files that changed while they were being fixed (exit 2, run again)."""
    return UserError(" ".join(f"{message}." for message in refused) + " Run `mcpdeps lint --fix` again.")
