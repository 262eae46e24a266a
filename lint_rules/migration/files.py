"""`mcpdeps migrate PATHS` over files: what each file becomes, what was left, and the write.

Files are found as `lint` finds them (`resolver_core.discovery`: folders walked, venvs and
build output skipped, git-ignored files skipped, named files always read) and read through
the same reader. Only files that mention `mcp` are parsed: nothing else can need a change.
The plan is a `FixPlan`, so the diff and the write are `lint --fix`'s own (`unified_diff`,
`write_plan`: the file guard, atomic replacement, a file changed meanwhile left alone).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import field
from pathlib import Path

from ...resolver_core.discovery import discover
from ...resolver_core.records import record, slotted
from ...resolver_core.source import read_text
from ..fixes.engine import FixPlan
from . import Note, migrate_text


@record
class FileNote:
    """Something left to the user in one file: `path:line: reason`."""

    path: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.reason}"


@slotted
class MigrationPlan:
    """What `migrate` would write, and what it leaves to the user."""

    plan: FixPlan = field(default_factory=FixPlan)
    notes: list[FileNote] = field(default_factory=list)
    questions: int = 0
    """Questions moved into resolvers, over every file."""
    files: int = 0
    """Python files looked at."""

    def changed(self) -> list[str]:
        return self.plan.changed()


def _mentions_mcp(text: str) -> bool:
    return "mcp" in text


def plan_migration(
    paths: Sequence[str | os.PathLike[str]], cwd: Path, exclude: Sequence[str] = ()
) -> MigrationPlan:
    """Migrate every Python file under `paths` in memory (nothing is written here)."""
    result = MigrationPlan()
    for source in discover(paths, exclude, cwd):
        result.files += 1
        text, problem = read_text(source.path, source.display)
        if text is None or problem is not None:
            reason = problem.message if problem is not None else "it cannot be read"
            result.notes.append(FileNote(source.display, 1, f"not migrated: {reason}"))
            continue
        if not _mentions_mcp(text):
            continue
        try:
            migrated = migrate_text(text)
        except Exception as exc:  # libcst's ParserSyntaxError, or a tree too deep for it
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            result.notes.append(FileNote(source.display, _line_of(exc), f"not migrated: {first}"))
            continue
        if migrated.text != text and not _parses(migrated.text):
            result.notes.append(
                FileNote(
                    source.display,
                    1,
                    "not migrated: the rewrite did not parse (a bug in mcpdeps; please report it)",
                )
            )
            continue
        result.plan.originals[source.display] = text
        result.plan.texts[source.display] = migrated.text
        if migrated.text != text:
            result.plan.fixed_in[source.display] = 1
            result.plan.fixed += 1
        result.questions += migrated.questions
        result.notes.extend(_located(source.display, migrated.notes))
    return result


def _parses(text: str) -> bool:
    import ast

    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _located(path: str, notes: Sequence[Note]) -> list[FileNote]:
    return [FileNote(path, n.line, n.reason) for n in notes]


def _line_of(exc: Exception) -> int:
    return int(getattr(exc, "raw_line", 0) or getattr(exc, "lineno", 0) or 1)
