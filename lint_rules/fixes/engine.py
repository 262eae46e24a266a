"""`--fix`/`--diff`: apply fixes until none is left, in memory, then write each file atomically.

Each pass lints with the pending texts as source overrides, takes every fix
whose edits do not overlap another one in the same file, and applies them;
the next pass re-lints, so fixes that touch the same parameter land one after
the other and positions are never stale. Nothing is written until the end:
`--diff` is the same plan, printed. A file is written with a temporary file in
the same folder and `os.replace` (never half-written), keeping its mode,
encoding, BOM and line endings, and only if it still holds the text the plan
started from (an editor may have saved it meanwhile).
"""

from __future__ import annotations

import difflib
import io
import os
import stat
import tempfile
import tokenize
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lint_rules import LintResult
from lint_rules.fixes import FixCache
from lint_rules.fixes.edits import LineIndex, apply_edits, span
from lint_rules.settings import Settings, run
from lint_rules.suppressions import checked_files
from resolver_core.diagnostics import Edit
from resolver_core.source import decode

MAX_PASSES = 10


class ChangedOnDisk(Exception):
    """A file changed between the lint that planned a fix and the write."""


@dataclass(slots=True)
class FixPlan:
    """What `--fix` would write: original and fixed text per file, and how many fixes that is."""

    originals: dict[str, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    fixed: int = 0
    result: LintResult | None = None
    """The lint of the fixed texts (what remains)."""

    def changed(self) -> list[str]:
        return sorted(p for p, text in self.texts.items() if text != self.originals[p])


def _choose(edits_by_fix: Sequence[list[Edit]], text: str) -> list[list[Edit]]:
    """Fixes for one file that do not overlap, in source order (the rest wait for the next pass)."""
    index = LineIndex(text)
    chosen: list[list[Edit]] = []
    taken: list[tuple[int, int]] = []
    for edits in sorted(edits_by_fix, key=lambda e: span(index, e)):
        start, end = span(index, edits)
        if all(end < s or start > e for s, e in taken):
            chosen.append(edits)
            taken.append((start, end))
    return chosen


def plan_fixes(
    paths: Sequence[str | os.PathLike[str]],
    settings: Settings,
    *,
    overrides: Mapping[Path, str] | None = None,
    cwd: Path | None = None,
) -> FixPlan:
    """Fix everything fixable in the files asked for, in memory; the result is the lint of the fixed code.

    Modules only followed through imports are reported but never rewritten: a
    pre-commit run on `server.py` must not edit an unstaged `deps.py`.
    """
    cwd = cwd or Path.cwd()
    plan = FixPlan()
    pending = {(cwd / p).absolute(): t for p, t in (overrides or {}).items()}
    asked = checked_files(paths, settings.exclude, cwd)
    for _ in range(MAX_PASSES):
        result = run(paths, settings, source_overrides=pending, cwd=cwd)
        plan.result = result
        for path, info in result.graph.sources.items():
            if info.text is not None:
                plan.originals.setdefault(path, info.text)
        current = {p: i.text for p, i in result.graph.sources.items() if i.text is not None}
        cache = FixCache(current.get)
        by_file: dict[str, list[list[Edit]]] = {}
        for d in result.diagnostics:
            if d.path not in asked:
                continue
            fix = cache.fix_for(d)
            if fix is not None and fix.edits and all(e.path == d.path for e in fix.edits):
                by_file.setdefault(d.path, []).append(fix.edits)
        if not by_file:
            break
        for path, fixes in by_file.items():
            chosen = _choose(fixes, current[path])
            plan.fixed += len(chosen)
            new_text = apply_edits(current[path], [e for edits in chosen for e in edits])
            plan.texts[path] = new_text
            pending[(cwd / path).absolute()] = new_text
    return plan


def unified_diff(plan: FixPlan) -> str:
    """The plan as a unified diff (`--- a/path`, `+++ b/path`), files in path order."""
    chunks = []
    for path in plan.changed():
        chunks.extend(
            difflib.unified_diff(
                plan.originals[path].splitlines(keepends=True),
                plan.texts[path].splitlines(keepends=True),
                fromfile=f"a/{path}",
                tofile=f"b/{path}",
            )
        )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in chunks
    )


def write_atomic(path: Path, expected: str, text: str) -> None:
    """Replace a file's text in one step, keeping mode, encoding and BOM; refuse if it changed meanwhile."""
    target = path.resolve()
    data = target.read_bytes()
    if decode(data) != expected:
        raise ChangedOnDisk(path)
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    payload = text.encode(encoding)  # "utf-8-sig" when the file had a BOM: it is written back
    mode = stat.S_IMODE(target.stat().st_mode)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".mcpdeps-fix")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def broken_by_fixes(plan: FixPlan) -> set[str]:
    """Changed files that no longer parse: a fixer bug must never cost the user their file."""
    assert plan.result is not None
    return {d.path for d in plan.result.diagnostics if d.code == "MCPD000" and d.path in plan.changed()}


def write_plan(plan: FixPlan, cwd: Path, skip: Collection[str] = ()) -> list[str]:
    """Write every changed file (except `skip`); return the messages of the files refused."""
    refused = []
    for path in plan.changed():
        if path in skip:
            continue
        try:
            write_atomic(cwd / path, plan.originals[path], plan.texts[path])
        except ChangedOnDisk:
            refused.append(f"{path} changed on disk while it was being fixed; it was left as it is")
    return refused
