"""`--fix`/`--diff`: apply fixes until none is left, in memory, then write the files.

Each pass lints with the pending texts as source overrides, takes every fix
whose edits do not overlap another one in the same file, and applies them;
the next pass re-lints, so fixes that touch the same parameter land one after
the other and positions are never stale. A pass that makes a new error appear
(renaming `_title` breaks a resolver that matched it by name) is undone and
replayed one fix at a time, and the fixes that break something are dropped:
fixed code must lint clean of anything it did not already have. Nothing is
written until the end (`--diff` is the same plan, printed); see `atomic_write`.
"""

from __future__ import annotations

import difflib
import os
import stat
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import field
from pathlib import Path

from ...resolver_core.diagnostics import Diagnostic, Edit
from ...resolver_core.file_guard import Refused, project_of
from ...resolver_core.lines import split_lines
from ...resolver_core.records import slotted
from .. import LintResult
from ..settings import Settings, run
from ..suppressions import checked_files
from . import FixCache
from .atomic_write import ChangedOnDisk, write_atomic
from .edits import LineIndex, apply_edits, span

MAX_PASSES = 10


@slotted
class FixPlan:
    """What `--fix` would write: original and fixed text per file, and how many fixes that is."""

    originals: dict[str, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    fixed: int = 0
    fixed_in: dict[str, int] = field(default_factory=dict)
    """Fixes per file (what a summary counts for the files actually written)."""
    refused: set[str] = field(default_factory=set)
    """Files `write_plan` did not write (changed meanwhile, or refused by `file_guard`)."""
    unsafe: list[Diagnostic] = field(default_factory=list)
    """Diagnostics whose fix was dropped because it made a new error appear."""
    result: LintResult | None = None
    """The lint of the fixed texts (what remains)."""

    def changed(self) -> list[str]:
        return sorted(p for p, text in self.texts.items() if text != self.originals[p])


def _choose(candidates: Sequence[_Candidate], text: str) -> list[_Candidate]:
    """Fixes for one file that do not overlap, in source order (the rest wait for the next pass)."""
    index = LineIndex(text)
    chosen: list[_Candidate] = []
    taken: list[tuple[int, int]] = []
    for c in sorted(candidates, key=lambda c: span(index, c.edits)):
        start, end = span(index, c.edits)
        if all(end < s or start > e for s, e in taken):
            chosen.append(c)
            taken.append((start, end))
    return chosen


Key = tuple[str, str, str]
"""(path, code, message): a diagnostic's identity across passes (its position moves as code changes)."""


def _key(d: Diagnostic) -> Key:
    return d.path, d.code, d.message


@slotted
class _Candidate:
    """A diagnostic's fix, waiting to be applied with the others of its file."""

    diagnostic: Diagnostic
    edits: list[Edit]


class _Planner:
    """The state of one `--fix` run: pending texts, what must not get worse, fixes given up on."""

    def __init__(
        self,
        paths: Sequence[str | os.PathLike[str]],
        settings: Settings,
        overrides: Mapping[Path, str] | None,
        cwd: Path,
        progress: Callable[[int, int], None] | None = None,
        unsafe: bool = False,
    ) -> None:
        self.paths, self.settings, self.cwd = paths, settings, cwd
        self.unsafe = unsafe
        self.progress = progress
        self.pending = {(cwd / p).absolute(): t for p, t in (overrides or {}).items()}
        self.asked = checked_files(paths, settings.exclude, cwd)
        self.rejected: set[Key] = set()
        self.plan = FixPlan()
        self.baseline: set[Key] = set()

    def lint(self, pending: Mapping[Path, str]) -> LintResult:
        return run(self.paths, self.settings, source_overrides=pending, cwd=self.cwd, progress=self.progress)

    def introduces_errors(self, result: LintResult) -> bool:
        return any(d.severity == "error" and _key(d) not in self.baseline for d in result.diagnostics)

    def candidates(self, result: LintResult) -> list[_Candidate]:
        """Non-overlapping fixes, per file, for diagnostics in the files asked for."""
        texts = {p: i.text for p, i in result.graph.sources.items() if i.text is not None}
        cache = FixCache(texts.get, unsafe=self.unsafe)
        by_file: dict[str, list[_Candidate]] = {}
        for d in result.diagnostics:
            if d.path not in self.asked or _key(d) in self.rejected:
                continue
            fix = cache.fix_for(d)
            if fix is not None and fix.edits and all(e.path == d.path for e in fix.edits):
                by_file.setdefault(d.path, []).append(_Candidate(d, fix.edits))
        return [c for path, found in by_file.items() for c in _choose(found, texts[path])]

    def applied(self, result: LintResult, chosen: Iterable[_Candidate]) -> dict[Path, str]:
        """The pending texts with these fixes applied."""
        by_file: dict[str, list[Edit]] = {}
        for c in chosen:
            by_file.setdefault(c.diagnostic.path, []).extend(c.edits)
        pending = dict(self.pending)
        for path, edits in by_file.items():
            text = result.graph.sources[path].text
            assert text is not None
            pending[(self.cwd / path).absolute()] = apply_edits(text, edits)
        return pending

    def accept(self, pending: dict[Path, str], chosen: Sequence[_Candidate]) -> None:
        self.pending = pending
        self.plan.fixed += len(chosen)
        for c in chosen:
            self.plan.fixed_in[c.diagnostic.path] = self.plan.fixed_in.get(c.diagnostic.path, 0) + 1

    def refreshed(self, result: LintResult, key: Key) -> _Candidate | None:
        """The fix for a diagnostic, recomputed on `result` (earlier fixes moved the code)."""
        found = next((d for d in result.diagnostics if _key(d) == key), None)
        if found is None:
            return None
        fix = FixCache(lambda path: result.graph.sources[path].text, unsafe=self.unsafe).fix_for(found)
        return _Candidate(found, fix.edits) if fix is not None and fix.edits else None

    def one_by_one(self, result: LintResult, chosen: list[_Candidate]) -> LintResult:
        """Replay a pass that broke something, keeping only the fixes that do not."""
        for key in [_key(c.diagnostic) for c in chosen]:
            candidate = self.refreshed(result, key)
            if candidate is None:
                continue
            pending = self.applied(result, [candidate])
            trial = self.lint(pending)
            if self.introduces_errors(trial):
                self.rejected.add(key)
                self.plan.unsafe.append(candidate.diagnostic)
            else:
                self.accept(pending, [candidate])
                result = trial
        return result

    def tidied(self) -> dict[Path, str]:
        """The pending texts without the `typing` imports the fixes together made unused: each
        fix tidies what it alone empties, but two `Optional[...]` fixed in one pass leave the
        import to this (`typing_imports`)."""
        from .typing_imports import without_newly_unused

        originals = {(self.cwd / p).absolute(): t for p, t in self.plan.originals.items()}
        return {
            path: without_newly_unused(originals[path], text) if path in originals else text
            for path, text in self.pending.items()
        }

    def run(self) -> FixPlan:
        result = self.lint(self.pending)
        self.baseline = {_key(d) for d in result.diagnostics if d.severity == "error"}
        self.plan.originals = {p: i.text for p, i in result.graph.sources.items() if i.text is not None}
        for _ in range(MAX_PASSES):
            chosen = self.candidates(result)
            if not chosen:
                break
            pending = self.applied(result, chosen)
            trial = self.lint(pending)
            if self.introduces_errors(trial):
                result = self.one_by_one(result, chosen)
                self.rejected.update(_key(c.diagnostic) for c in chosen)  # replayed once, never again
            else:
                self.accept(pending, chosen)
                result = trial
        tidied = self.tidied()
        if tidied != self.pending:
            self.pending = tidied
            result = self.lint(tidied)
        self.plan.result = result
        for path, info in result.graph.sources.items():
            if info.text is not None:
                self.plan.originals.setdefault(path, info.text)
                self.plan.texts[path] = info.text
        return self.plan


def plan_fixes(
    paths: Sequence[str | os.PathLike[str]],
    settings: Settings,
    *,
    overrides: Mapping[Path, str] | None = None,
    cwd: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    unsafe: bool = False,
) -> FixPlan:
    """Fix everything safely fixable in the files asked for, in memory; the result lints the fixed code.

    Modules only followed through imports are reported but never rewritten: a
    pre-commit run on `server.py` must not edit an unstaged `deps.py`. `unsafe`: the fixes
    that change behaviour (a rule's unsafe `FIX`) too, as `--unsafe-fixes` asks.
    """
    return _Planner(paths, settings, overrides, cwd or Path.cwd(), progress, unsafe).run()


def unified_diff(plan: FixPlan) -> str:
    """The plan as a unified diff (`--- a/path`, `+++ b/path`), files in path order."""
    chunks: list[str] = []
    for path in plan.changed():
        chunks.extend(
            difflib.unified_diff(
                split_lines(plan.originals[path], keepends=True),
                split_lines(plan.texts[path], keepends=True),
                fromfile=f"a/{path}",
                tofile=f"b/{path}",
            )
        )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in chunks
    )


def _identity(path: Path, follow: bool) -> tuple[int, int] | None:
    """(device, inode) of a file; with `follow=False`, None for a link (or a missing file)."""
    try:
        st = path.stat() if follow else path.lstat()
    except OSError:
        return None
    return None if not follow and stat.S_ISLNK(st.st_mode) else (st.st_dev, st.st_ino)


def broken_by_fixes(plan: FixPlan) -> set[str]:
    """Changed files that no longer parse: a fixer bug must never cost the user their file."""
    assert plan.result is not None
    return {d.path for d in plan.result.diagnostics if d.code == "MCPD000" and d.path in plan.changed()}


def write_plan(plan: FixPlan, cwd: Path, skip: Collection[str] = ()) -> list[str]:
    """Write every changed file (except `skip`); return the messages of the files refused.

    A file named twice (`a.py` and a link to it) is written once, under its own name: the
    guard refuses writes through links, and a second write would find it changed.
    """
    refused = []
    paths = [p for p in plan.changed() if p not in skip]
    direct = {_identity(cwd / p, follow=False) for p in paths} - {None}
    for path in paths:
        target = cwd / path
        if _identity(target, follow=False) is None and _identity(target, follow=True) in direct:
            continue  # a link to a file fixed under its own name
        try:
            write_atomic(target, plan.originals[path], plan.texts[path], project_of(target, cwd), path)
            continue
        except (ChangedOnDisk, FileNotFoundError):  # edited or deleted since it was read: never recreate it
            refused.append(f"{path} changed on disk while it was being fixed; it was left as it is")
        except Refused as exc:
            refused.append(str(exc))
        except OSError as exc:
            refused.append(f"cannot write {path}: {exc.strerror or exc}; it was left as it is")
        plan.refused.add(path)
    return refused
