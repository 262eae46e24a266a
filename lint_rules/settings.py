"""The effective settings of one lint run: the config file with the command line on top.

Kept apart from `config.py` (which only reads and validates the file) because
`--fix` re-runs lint several times with the same settings, and `serve` may want
the same merge.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..resolver_core.records import record
from . import LintResult, lint
from .config import FailOn, LintConfig, per_file_ignored

if TYPE_CHECKING:
    from ..resolver_core.diagnostics import Diagnostic
    from ..resolver_core.discovery import SourceFile


@record
class Settings:
    """What a run selects, skips and fails on, after merging file and flags."""

    config: LintConfig
    select: list[str] | None
    ignore: list[str]
    extend_select: list[str]
    exclude: list[str]
    src: list[Path]
    fail_on: FailOn


def merge(
    config: LintConfig,
    *,
    select: list[str] | None = None,
    ignore: Sequence[str] = (),
    extend_select: Sequence[str] = (),
    exclude: list[str] | None = None,
    extend_exclude: Sequence[str] = (),
    fail_on: FailOn | None = None,
) -> Settings:
    """Flags win: `--select`/`--exclude`/`--fail-on` replace the file's value; the others add to it."""
    root = config.root or Path.cwd()
    return Settings(
        config=config,
        select=select if select else config.select,
        ignore=[*config.ignore, *ignore],
        extend_select=[*config.extend_select, *extend_select],
        exclude=[
            *(exclude if exclude is not None else config.exclude),
            *config.extend_exclude,
            *extend_exclude,
        ],
        src=[root / s for s in config.src],
        fail_on=fail_on or config.fail_on,
    )


def run(
    paths: Sequence[str | os.PathLike[str]],
    settings: Settings,
    *,
    source_overrides: Mapping[Path, str] | None = None,
    cwd: Path | None = None,
    cache_dir: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
    fixes: bool = False,
    files: Sequence[SourceFile] | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> LintResult:
    """`lint()` with the settings applied, `per-file-ignores` included."""
    cwd = cwd or Path.cwd()
    result = lint(
        paths,
        select=settings.select,
        ignore=settings.ignore,
        extend_select=settings.extend_select,
        source_overrides=source_overrides,
        src=settings.src,
        exclude=settings.exclude,
        cwd=cwd,
        cache_dir=cache_dir,
        progress=progress,
        jobs=jobs,
        fixes=fixes,
        files=files,
        meanwhile=meanwhile,
    )
    if not settings.config.per_file_ignores:
        return result
    return replace(result, diagnostics=without_ignored(result.diagnostics, settings, cwd))


def without_ignored(diagnostics: list[Diagnostic], settings: Settings, cwd: Path) -> list[Diagnostic]:
    """The diagnostics `per-file-ignores` keeps (paths relative to `cwd`)."""
    if not settings.config.per_file_ignores:
        return diagnostics
    return [d for d in diagnostics if not per_file_ignored(settings.config, d.path, d.code, cwd)]
