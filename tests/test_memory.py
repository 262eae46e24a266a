"""A large lint run holds one slice's syntax trees at a time, which bounds its peak memory.

A build keeps every tree it parsed until its records are taken, so a run over more than
`MAX_FILES_PER_SLICE` given files is checked slice by slice, in one process as in the
workers. That is only worth anything if a slice's graph really goes when its records are
taken: lint runs with the cyclic collector paused, so nothing a build makes may be a
reference cycle. And it must not show: every slicing reports what one build reports.
"""

from __future__ import annotations

import ast
import gc
import random
import shutil
from pathlib import Path

import pytest
from conftest import REPO
from mcpdeps.lint_rules import LintResult, incremental, lint, slice_plan
from mcpdeps.lint_rules.registry import select_rules
from mcpdeps.resolver_core.builder import build_graph
from mcpdeps.resolver_core.diagnostics import plain
from mcpdeps.resolver_core.discovery import discover
from mcpdeps.resolver_core.source import without_cyclic_gc
from test_incremental import make_project

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: a generated project its runs measure.

CORPUS = REPO / "tests" / "corpus"

REGISTER = """from mcp.server import MCPServer


def register(server: MCPServer) -> None:
    @server.tool()
    def tool_0_1(_x: int) -> int:
        return _x
"""
CALLER = "from app.server import mcp\nimport aaa_register\n\naaa_register.register(mcp)\n"
"""Registers a tool named like one in `pkg0/tools_0.py` on its server (`mcp`), from the last
slice, through a function of a module in the first: MCPD110 needs the caller's slice."""


def _dump(result: LintResult) -> list[dict]:
    return [plain(d) for d in result.diagnostics]


def _texts(result: LintResult) -> dict[str, str | None]:
    return {path: info.text for path, info in result.graph.sources.items()}


@pytest.fixture(scope="module")
def coupled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("coupled") / "proj"
    make_project(root, random.Random(3), modules=12)
    (root / "aaa_register.py").write_text(REGISTER)
    (root / "zzz").mkdir()
    (root / "zzz" / "__init__.py").write_text("")
    (root / "zzz" / "caller.py").write_text(CALLER)
    return root


@pytest.mark.parametrize(
    ("limit", "value"),
    [
        ("MAX_FILES_PER_SLICE", 1),
        ("MAX_FILES_PER_SLICE", 7),
        ("MAX_FILES_PER_SLICE", 64),
        ("MAX_BYTES_PER_SLICE", 16_384),
    ],
)
def test_slices_of_any_size_report_what_one_build_reports(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, limit: str, value: int
) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    whole = lint(["."], cwd=corpus)
    assert whole.graph.servers, "one build: its graph is the result's"
    monkeypatch.setattr(slice_plan, limit, value)
    path_of = {f.display: f.path.absolute() for f in discover(["."], (), corpus)}
    assert slice_plan.slices(list(path_of), path_of) > 2
    sliced = lint(["."], cwd=corpus)
    assert _dump(sliced) == _dump(whole)
    assert (sliced.files, sliced.parsed, sliced.analysed) == (whole.files, whole.parsed, whole.analysed)
    assert _texts(sliced) == _texts(whole), "renderers and fixes read the same texts"


@pytest.mark.parametrize("foreseen", [True, False])
def test_a_register_function_called_from_another_slice(
    monkeypatch: pytest.MonkeyPatch, coupled: Path, foreseen: bool
) -> None:
    """Which server `register(server)` registers on is known only where it is called: the
    slices' coupled records are checked again over one build of every file (workers too).
    The text foresees it (`coupling.coupled_files`: the file and its callers in one slice, in
    one process as in workers); when it does not, the slices and workers that find a coupled
    record give the same verdicts."""
    if not foreseen:
        monkeypatch.setattr(slice_plan, "coupled_files", lambda *_: [])
    whole = lint(["."], cwd=coupled)
    assert "MCPD110" in {d.code for d in whole.diagnostics}
    monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", 4)
    assert _dump(lint(["."], cwd=coupled)) == _dump(whole)
    assert _dump(lint(["."], cwd=coupled, jobs=2)) == _dump(whole)
    monkeypatch.setattr(slice_plan, "MIN_FILES_PER_JOB", 2)
    assert _dump(lint(["."], cwd=coupled, jobs=2)) == _dump(whole), "forked workers"


def test_a_checked_slice_is_freed_by_reference_counting() -> None:
    """Every tree, symbol table and model object of a build goes with its last reference: a
    recursive closure or a bound method kept by what it is bound to would hold them all."""
    files = discover(["."], (), CORPUS)
    path_of = {f.display: f.path.absolute() for f in files}
    rules = select_rules(None, (), ())

    def check() -> None:
        incremental.check_files(
            list(path_of),
            path_of,
            lambda only, _, withheld, classified, piece: build_graph(
                ["."],
                cwd=CORPUS,
                files=files,
                only=only,
                withheld=withheld,
                classified=classified,
                piece=piece,
            ),
            rules,
            incremental.Hashes(),
        )

    check()  # first: lazy imports and caches of the libraries
    gc.collect()
    with without_cyclic_gc():
        check()
        gc.set_debug(gc.DEBUG_SAVEALL)  # keep what the collector finds: cycles and all they hold
        try:
            gc.collect()
            held = [
                o for o in gc.garbage if isinstance(o, ast.AST) or type(o).__module__.startswith("mcpdeps")
            ]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    # (`inspect.signature` of a builtin leaves a small cycle of its own: no tree in it.)
    assert not held, f"{len(held)} objects only the cyclic collector frees, such as {held[:5]}"
