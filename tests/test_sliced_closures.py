"""A record's dependencies are the same however a run was cut in slices.

An entry point hands its server to group helpers, each handing it on to feature helpers. A
build of every file follows the entry point's server through each group into its features,
so the entry point's record depends on them. A slice that withholds a group (another slice
checks it, `confined.Confined.withheld`) stops there: the record then depended on the group
only, and the next run that built them together found the features new in the entry point's
closure and checked every coupled file a second time (`invalidation.reached`). The closures
of the withheld files are now part of the record's dependencies
(`incremental._through_withheld`): an edit of a shared resolver module is checked in one
round, and reports what a cold run reports.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps
from mcpdeps.lint_rules import invalidation, slice_plan

sys.path.insert(0, str(REPO / "benchmarks"))
from gen_shapes import generate


def _lint(root: Path, *args: str) -> str:
    done = run_mcpdeps("lint", "--format", "json", *args, ".", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def _shared_module(root: Path) -> Path:
    """The resolver module most modules import."""
    imported = Counter(
        m
        for path in root.glob("pkg*/*.py")
        for m in re.findall(r"^from (pkg\d+) import (deps_\d+) ", path.read_text(), re.M)
    )
    package, module = imported.most_common(1)[0][0]
    return root / package / f"{module}.py"


def test_an_edit_of_a_shared_module_is_checked_in_one_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generate(tmp_path, 120, "helpers", 1)
    monkeypatch.setattr(slice_plan, "MIN_FILES_PER_JOB", 4)  # workers on a tree this small
    monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", 16)
    rounds: list[int] = []
    reached = invalidation.reached

    def counted(checked, *args):  # type: ignore[no-untyped-def]
        rounds.append(len(checked))
        return reached(checked, *args)

    monkeypatch.setattr(invalidation, "reached", counted)
    files = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.py"))
    plan = slice_plan.plan(files, {f: tmp_path / f for f in files}, 4)
    assert plan is not None and len(plan[0]) > 1, "the coupling group in pieces"
    _lint(tmp_path, "-j", "4")  # four workers share the coupling group in pieces
    rounds.clear()
    shared = _shared_module(tmp_path)
    shared.write_text(shared.read_text() + "\n\nLIMIT = 10\n")
    edited = _lint(tmp_path, "-j", "4")
    assert len(rounds) == 1, f"rounds of {rounds} files"
    # Not every file: the module's importers, and the coupled records with their callers (a
    # factory whose callers register on the server it returns is coupled too).
    assert 3 * rounds[0] < 2 * len(list(tmp_path.rglob("*.py"))), "not every file"
    assert edited == _lint(tmp_path, "--no-cache", "-j", "1")
