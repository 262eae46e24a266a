"""The progress bar: on a terminal, after a second, for `lint`, `lint --fix`/`--diff` and `graph`;
never in a pipe (what scripts, CI and pre-commit read stays byte for byte the same)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest
from conftest import REPO, run_mcpdeps

sys.path.insert(0, str(REPO / "benchmarks"))

from gen_corpus import generate

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: a generated tree of 1,000 modules.

MODULES = 1000
"""Enough that reading the tree takes well over the bar's one-second delay anywhere."""


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("progress") / "proj"
    generate(root, MODULES)
    return root


def _bar_on_a_terminal(cwd: Path, *args: str, shows: tuple[str, ...]) -> str:
    """What the run prints on a terminal until all of `shows` has appeared; then it is killed
    (the rest of the run proves nothing more about the bar, and `--diff` over the whole tree
    costs seconds of libcst). Fails with the output if the run ends first."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100"}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable, ["-m", "mcpdeps", *args], cwd=str(cwd), env=env, encoding="utf-8", timeout=600
    )
    shown = ""
    try:
        while not all(text in shown for text in shows):
            shown += child.read_nonblocking(65536, timeout=600)
    except pexpect.EOF:
        pass
    finally:
        child.close(force=True)
    return shown


@pytest.mark.parametrize(
    ("args", "label"),
    [
        (("lint", ".", "--no-cache", "--jobs", "1", "--format", "concise"), "checking"),
        (("lint", ".", "--diff"), "fixing"),
        (("graph", ".", "--format", "json"), "reading"),
    ],
)
def test_a_long_run_on_a_terminal_shows_a_bar_and_a_pipe_never_does(
    tree: Path, args: tuple[str, ...], label: str
) -> None:
    total = f"/{sum(1 for _ in tree.rglob('*.py'))}"
    shown = _bar_on_a_terminal(tree, *args, shows=(label, total))
    assert label in shown and total in shown, shown[-2000:]
    piped = run_mcpdeps(*args, cwd=tree, timeout=600)
    assert label not in piped.stderr and total not in piped.stderr
