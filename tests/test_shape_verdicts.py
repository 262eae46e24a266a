"""Every path to a verdict reports the same bytes, on trees of every generated shape, with errors.

A speed change may check files in another order, in slices, in workers, from the cache, one
file at a time or from an editor's memory: none of that may show in the report. Last time a
verdict bug got through because the generated trees registered their tools only at module
level or in simple factories and reported almost nothing, so "identical" compared two empty
lists. Here each shape of `benchmarks/gen_shapes.py` (`helpers` registers through
`register(server)` helpers, chains of them, another module's decorator, classes and server
factories) is written small, with seeded errors of several codes in many files
(`benchmarks/gen_errors.py`; `test_generated_sdk_agrees.py` holds them to the SDK), and the
JSON report of a cold `lint --no-cache -j 1 .` is the reference that each other path must
print byte for byte:

- workers (default jobs and `-j 2`), and slices forced small so several slices and coupling
  groups occur, in one process and in workers;
- the cache: a first run keeping it, a run with nothing changed (the report memo), the same
  without the memo (every record from the cache), and after an edit of the most shared
  resolver module, then of a tool module (each compared with a cold run of the edited tree);
- every file given alone (`lint FILE`: that file's part of `lint .`);
- the engine's unsaved texts (`lint_rules.api`) and the language server's model of the folder,
  as they are, with the shared resolver module or a tool module edited unsaved (compared
  with a cold run of the edit saved), and after the unsaved text is dropped.
All in this process (`run_mcpdeps`): about a minute of one core, most of it the files alone.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, run_mcpdeps
from mcpdeps.cli.lsp.workspace import WorkspaceModel
from mcpdeps.lint_rules import api, slice_plan
from mcpdeps.resolver_core.diagnostics import Diagnostic
from mcpdeps.resolver_core.discovery import discover
from published_shapes import with_known_gaps

sys.path.insert(0, str(REPO / "benchmarks"))
from gen_shapes import generate

TREES = {
    "dense": ("dense", 36, 1, 0.6),
    "flat": ("flat", 36, 1, 0.4),
    "mixed": ("mixed", 40, 3, 0.7),
    "sparse": ("sparse", 80, 1, 1.0),
    "helpers": ("helpers", 40, 3, 0.4),
    "helpers-2": ("helpers", 48, 2, 0.3),
}
"""Per tree: shape, modules, seed, share of modules with an error. Chosen so that each small
tree reports findings of several codes in several files (a sparse tree has few MCP modules),
while every file of every tree linted alone stays within a minute of one core."""
NAMES = list(TREES)
KNOWN_GAPS: dict[tuple[str, str], str] = {}
"""(check, tree) -> why a path disagrees with the cold run today: a product bug, a strict xfail."""


def cases(check: str) -> list[Any]:
    """The trees, with the known gaps of `check` as strict xfails (XPASS once fixed: delete it)."""
    return with_known_gaps(check, NAMES, KNOWN_GAPS)


JSON = ("--format", "json")
UNCOUPLED = {"flat", "sparse"}
"""The shapes that register every tool at module level: no file's verdict depends on a caller."""
SHARED_USER = re.compile(r"def get_user_(\d+)\(user_id: str")
"""The first resolver of a `deps` module, run by most tools importing it."""


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One tree per shape, written once for the module (its tests copy it before writing)."""
    root = tmp_path_factory.mktemp("shapes")
    for name, (shape, modules, seed, errors) in TREES.items():
        generate(root / name, modules, shape, seed, errors)
    return {name: root / name for name in NAMES}


@pytest.fixture(scope="module")
def references(trees: dict[str, Path]) -> dict[str, str]:
    """Each tree's report from a cold `lint --no-cache -j 1 .`."""
    return {shape: _lint(root, "--no-cache", "-j", "1", ".") for shape, root in trees.items()}


def _lint(root: Path, *args: str) -> str:
    done = run_mcpdeps("lint", *JSON, *args, cwd=root)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def _diagnostics(report: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(report)["diagnostics"]
    return found


def _contract(diagnostics: list[Diagnostic]) -> list[dict[str, Any]]:
    """Diagnostics as the JSON report writes them."""
    return [d.contract_dict() for d in diagnostics]


def _unfixed(diagnostics: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Diagnostics without their fixes: the editor computes a fix as a code action when asked."""
    return [{**d, "fix": None} for d in diagnostics]


def _plan(root: Path) -> tuple[list[list[str]], list[list[str]]]:
    """The coupling groups of the tree and the slices a run checks (groups included)."""
    files = discover(["."], (), root)
    path_of = {f.display: f.path.absolute() for f in files}
    plan = slice_plan.plan([f.display for f in files], path_of, 1)
    assert plan is not None, "checked over one build of every file: no slices"
    return plan[0], plan[1]


def _copy(trees: dict[str, Path], shape: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(trees[shape], tmp_path / shape))


def _shared_resolver_edit(root: Path) -> tuple[Path, str]:
    """The `deps` module the most modules import, with its user resolver's parameter renamed:
    every tool running it, in any file, is now refused (MCPD002 in the `deps` module)."""
    imported = Counter(
        re.findall(r"import (deps_\d+) as", "".join(p.read_text() for p in root.rglob("*.py")))
    )
    name, _ = imported.most_common(1)[0]
    path = next(root.rglob(f"{name}.py"))
    text = path.read_text()
    edited = SHARED_USER.sub(r"def get_user_\1(user_key: str", text, count=1)
    assert edited != text
    return path, edited


def _tool_edit(root: Path) -> tuple[Path, str]:
    """The first module declaring a tool with a `limit` argument, which now starts with `_`
    (MCPD006 there, and the argument no longer feeds a resolver of that name)."""
    path = next(p for p in sorted(root.rglob("*.py")) if "    limit: int = 10," in p.read_text())
    return path, path.read_text().replace("    limit: int = 10,", "    _limit: int = 10,", 1)


EDITS = {"shared resolver": _shared_resolver_edit, "tool": _tool_edit}


BENCHMARK_TREES = {
    "dense": "fec73730bd780e38d34f9649dafe148371db4e4546c3c1ede6ac7ef8d7e3a52c",
    "flat": "a3f145b4b15ac55e74d4fae48bc5335ba2ec8350da612ec6fdb65e92b4285abb",
    "mixed": "6c2828ee5c5ff3ba13fdbd9d4542e08848fbf1773ab0ef3cf5d4244e5d74f468",
    "sparse": "23d4f51a0a798a48181f280182a6a20db36914a2fafd018a99a3d930819141a1",
}
"""Digests of `gen_shapes.py OUT --shape S --modules 120 --seed 2` as the benchmarks' figures
were measured on (before errors could be seeded)."""


def _digest(root: Path) -> str:
    """Every file's path and bytes."""
    sha = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        sha.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()


@pytest.mark.parametrize("shape", sorted(BENCHMARK_TREES))
def test_the_benchmark_trees_are_unchanged_without_errors(shape: str, tmp_path: Path) -> None:
    """Seeded errors have a random stream of their own: without `--errors` a shape's tree is the
    one every recorded figure was measured on, byte for byte."""
    generate(tmp_path / "tree", 120, shape, 2)
    assert _digest(tmp_path / "tree") == BENCHMARK_TREES[shape]


def test_a_tree_with_errors_is_the_same_for_the_same_arguments(tmp_path: Path) -> None:
    generate(tmp_path / "a", 60, "helpers", 5, 0.5)
    generate(tmp_path / "b", 60, "helpers", 5, 0.5)
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b")
    generate(tmp_path / "b", 60, "helpers", 5, 0.0)
    assert _digest(tmp_path / "a") != _digest(tmp_path / "b")
    assert "def bad_" not in "".join(p.read_text() for p in (tmp_path / "b").rglob("*.py"))


@pytest.mark.parametrize("shape", NAMES)
def test_the_trees_report_many_codes_in_many_files(shape: str, references: dict[str, str]) -> None:
    """The comparisons below compare something: dozens of findings, of several codes, spread out."""
    found = _diagnostics(references[shape])
    assert len({d["code"] for d in found}) >= 4, found
    assert len({d["path"] for d in found}) >= 5, found


@pytest.mark.parametrize("shape", cases("workers"))
def test_workers_and_slices_report_what_one_process_reports(
    shape: str, trees: dict[str, Path], references: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = trees[shape]
    monkeypatch.setattr(slice_plan, "MIN_FILES_PER_JOB", 4)  # workers on a tree this small
    assert _lint(root, "--no-cache", ".") == references[shape], "default jobs"
    assert _lint(root, "--no-cache", "-j", "2", ".") == references[shape], "-j 2"
    files = slice_plan.MAX_FILES_PER_SLICE
    monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", 6)
    groups, slices = _plan(root)
    assert len(slices) > 2 and (bool(groups) or TREES[shape][0] in UNCOUPLED), "slices and coupling groups"
    assert _lint(root, "--no-cache", "-j", "1", ".") == references[shape], "slices of 6 files, -j 1"
    assert _lint(root, "--no-cache", "-j", "2", ".") == references[shape], "slices of 6 files, -j 2"
    monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", files)
    monkeypatch.setattr(slice_plan, "MAX_BYTES_PER_SLICE", 16_384)
    assert len(_plan(root)[1]) > 2, "slices by size"
    assert _lint(root, "--no-cache", "-j", "1", ".") == references[shape], "slices of 16 KiB, -j 1"


@pytest.mark.parametrize("sliced", [False, True], ids=["one build", "slices of 6 files"])
@pytest.mark.parametrize("shape", cases("cached"))
def test_cached_runs_report_what_a_cold_run_reports(
    shape: str,
    sliced: bool,
    trees: dict[str, Path],
    references: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Slices of 6 files: an edit's files are checked in several slices too (a slice of them
    once lost the tools a helper the edit left alone registers for its files)."""
    if sliced:
        monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", 6)
    root = _copy(trees, shape, tmp_path)
    assert _lint(root, ".") == references[shape], "cold, keeping the cache"
    assert _lint(root, ".") == references[shape], "nothing changed (the report memo)"
    for memo in (root / ".mcpdeps_cache").rglob("mcpdeps-report-*.json"):
        memo.unlink()
    assert _lint(root, ".") == references[shape], "nothing changed, every record from the cache"
    before = references[shape]
    for edit in EDITS.values():
        path, edited = edit(root)
        path.write_text(edited)
        cold = _lint(root, "--no-cache", "-j", "1", ".")
        assert cold != before, "the edit changes the verdicts"
        assert _lint(root, ".") == cold, f"after an edit of {path.relative_to(root)}"
        before = cold


@pytest.mark.parametrize("shape", cases("alone"))
def test_every_file_alone_reports_its_part_of_the_whole(
    shape: str, trees: dict[str, Path], references: dict[str, str]
) -> None:
    root = trees[shape]
    whole: dict[str, list[dict[str, Any]]] = {}
    for d in _diagnostics(references[shape]):
        whole.setdefault(d["path"], []).append(d)
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))
    differing = {}
    for path in files:
        alone = [d for d in _diagnostics(_lint(root, "--no-cache", path)) if d["path"] == path]
        if alone != whole.get(path, []):
            differing[path] = {"lint .": whole.get(path, []), "lint FILE": alone}
    assert not differing


@pytest.mark.parametrize("shape", cases("editor"))
def test_the_editor_and_unsaved_texts_report_what_lint_reports(
    shape: str, trees: dict[str, Path], references: dict[str, str], tmp_path: Path
) -> None:
    root = trees[shape]
    model = WorkspaceModel(root)
    model.check(model.order)
    assert _unfixed(_contract(model.report())) == _unfixed(_diagnostics(references[shape])), (
        "the editor's model"
    )
    for what, edit in EDITS.items():
        path, edited = edit(root)
        copy = _copy(trees, shape, tmp_path / what)
        (copy / path.relative_to(root)).write_text(edited)
        expected = _diagnostics(_lint(copy, "--no-cache", "-j", "1", "."))
        unsaved = api.lint(api.LintRequest(["."], root, texts={path: edited}), fixes=True)
        assert _contract(unsaved.diagnostics) == expected, f"the engine, {what} edited unsaved"
        model.set_text(path, edited)
        model.check(model.order)
        assert _unfixed(_contract(model.report())) == _unfixed(expected), f"the editor, {what} edited unsaved"
        model.set_text(path, None)
        model.check(model.order)
        assert _unfixed(_contract(model.report())) == _unfixed(_diagnostics(references[shape])), (
            f"the editor, {what} edit dropped"
        )
