"""Valid corpus cases are valid all the way: they run under the SDK, and they lint silent.

`test_oracle.py` proves that valid cases *register*. Two more promises of the corpus are
checked here, each with one subprocess for all valid cases, both started at once:

- every tool of every valid case answers a call through the SDK's real in-process Client
  (`sdk_calls.py`), so no valid case hides a run-time trap (MCPD1xx) the SDK would only
  show at call time;
- `mcpdeps lint` reports nothing at all on the valid cases (not even a 1xx warning),
  except MCPD113, the notice that a resolver is computed at run time and cannot be seen
  statically (that is a case's point, not a defect).
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import corpus_table
import pytest
from conftest import REPO, run_mcpdeps

SDK_CALLS = Path(__file__).resolve().with_name("sdk_calls.py")
VALID = sorted(case for case, codes in corpus_table.case_headers().items() if not codes)
ALLOWED_ON_VALID = {"MCPD113"}


def run_sdk_calls(cases: list[str]) -> dict[str, Any]:
    """Call every tool of the cases under the real SDK, in one subprocess."""
    done = subprocess.run(
        [sys.executable, str(SDK_CALLS), *cases], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)["cases"]


def run_lint(cases: list[str]) -> list[dict[str, Any]]:
    """`mcpdeps lint --format json` over all the cases at once; its diagnostics."""
    done = run_mcpdeps("lint", "--format", "json", "--exit-zero", *cases, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)["diagnostics"]


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    """Both runs, concurrently (one is CPU in the SDK, the other in the linter)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        calls = pool.submit(run_sdk_calls, VALID)
        lint = pool.submit(run_lint, VALID)
        return {"calls": calls.result(), "lint": lint.result()}


def test_there_are_valid_cases() -> None:
    assert len(VALID) >= 45


@pytest.mark.parametrize("case", VALID)
def test_every_tool_runs_under_the_sdk(results: dict[str, Any], case: str) -> None:
    outcome = results["calls"][case]
    assert outcome["import_error"] is None
    failed = [f"{c['tool']}({c['arguments']}): {c['text']}" for c in outcome["calls"] if c["error"]]
    assert failed == []


@pytest.mark.parametrize("case", VALID)
def test_lint_is_silent(results: dict[str, Any], case: str) -> None:
    prefix = case + "/"
    found = [
        f"{d['path']}:{d['line']}: {d['code']} {d['message']}"
        for d in results["lint"]
        if d["path"].startswith(prefix) and d["code"] not in ALLOWED_ON_VALID
    ]
    assert found == []
