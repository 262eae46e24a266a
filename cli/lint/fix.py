"""What `mcpdeps lint --fix` and `--diff` say about a fix plan, in sentences.

The plan is the engine's (`lint_rules.api.fix_plan`, the one every front end applies); how
these sentences and the diff are shown is `render_fix.py`'s business.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...lint_rules.fixes.engine import FixPlan
from ..errors import UserError


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


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
