"""Snapshots of each command's main outputs at 60 and 100 columns, held once reviewed by eye.

Each case runs the real CLI in the repository with `COLUMNS` set and no colour, and compares
what it prints (stdout, then stderr after a `--- stderr` line; trailing spaces dropped) with
`tests/snapshots/<case>-<width>.txt`. A change of layout shows up as a diff to review; when
it is right, regenerate with `MCPDEPS_UPDATE_SNAPSHOTS=1 pytest tests/test_snapshots.py`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
WIDTHS = (60, 100)

# `serve`'s banner names the interpreter by its absolute path (different on every machine);
# tests/test_widths.py checks it at 60, 80 and 200 columns instead.
CASES: dict[str, tuple[str, ...]] = {
    "lint-full": ("lint", "--no-cache", "examples/broken"),
    "lint-concise": ("lint", "--no-cache", "--format", "concise", "examples/broken"),
    "lint-clean": ("lint", "--no-cache", "examples/bookshop"),
    "graph-bookshop": ("graph", "examples/bookshop/server.py"),
    "graph-broken": ("graph", "examples/broken"),
    "rule": ("rule", "MCPD002"),
    "call": (
        "call",
        "examples/bookshop/server.py",
        "order_book",
        "--arg",
        "title=Neuromancer",
        "--answers",
        "tests/snapshots/answers.json",
    ),
    "lint-help": ("lint", "--help"),
    "missing-path": ("lint", "examples/bookshop/srver.py"),
}


def _snapshot(args: tuple[str, ...], width: int) -> str:
    proc = run_mcpdeps(*args, cwd=REPO, env={"COLUMNS": str(width)}, input="")
    text = (
        proc.stdout + (f"--- stderr\n{proc.stderr}" if proc.stderr else "") + f"--- exit {proc.returncode}\n"
    )
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", list(CASES))
def test_output_matches_its_reviewed_snapshot(case: str, width: int) -> None:
    path = SNAPSHOTS / f"{case}-{width}.txt"
    actual = _snapshot(CASES[case], width)
    if os.environ.get("MCPDEPS_UPDATE_SNAPSHOTS") or not path.exists():
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8"), f"{path.name} changed: review the diff, then update"
