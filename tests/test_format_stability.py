"""Every format prints the same bytes cold, warm (cache), after an edit, and with 1 or 2 workers.

The cache keeps each file's verdicts and the fixes computed for its diagnostics; the
workers split the files. None of it may show in a report: the corpus (over 96 files, so
`--jobs 2` really forks) is linted in each format every way, byte for byte.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps

CORPUS = REPO / "tests" / "corpus"
FORMATS = ["full", "concise", "json", "sarif", "github"]
EDITED = "underscore/argument/server.py"
"""The server that gets a new tool with a fixable diagnostic (MCPD006) in the edit."""


def _report(cwd: Path, seed: int | None, *args: str) -> str:
    """Runs compared with one another hash strings differently: the runs in this process
    share its hash seed, and could agree on an order that another seed would not print, so
    the runs they are compared with get a seed number (a process of their own, `run_mcpdeps`)."""
    proc = run_mcpdeps("lint", ".", "--exit-zero", *args, cwd=cwd, timeout=300, hash_seed=seed)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _edit(corpus: Path) -> None:
    server = corpus / EDITED
    server.write_text(
        server.read_text(encoding="utf-8")
        + "\n\n@mcp.tool()\ndef added_by_the_test(_hidden: int) -> int:\n    return _hidden\n",
        encoding="utf-8",
    )


@pytest.mark.parametrize("fmt", [*FORMATS, "statistics"])
def test_cold_warm_edited_and_parallel_runs_print_the_same_bytes(tmp_path: Path, fmt: str) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    args = ["--statistics"] if fmt == "statistics" else ["--format", fmt]
    cache = ["--cache-dir", str(tmp_path / "cache")]
    cold = _report(corpus, 0, *args, "--no-cache", "--jobs", "1")
    assert cold.strip(), "the corpus has findings in every format"
    assert _report(corpus, None, *args, "--no-cache", "--jobs", "2") == cold
    assert _report(corpus, None, *args, *cache, "--jobs", "2") == cold, "first run, filling the cache"
    assert _report(corpus, None, *args, *cache) == cold, "warm: nothing changed"
    _edit(corpus)
    edited = _report(corpus, 0, *args, "--no-cache", "--jobs", "2")
    assert edited != cold
    assert _report(corpus, None, *args, *cache) == edited, "warm: one file edited"
    assert _report(corpus, None, *args, *cache, "--jobs", "1") == edited


def test_a_warm_json_or_sarif_run_computes_no_fix(tmp_path: Path) -> None:
    """Fixes are kept with the cache: the second run in a fix-listing format loads no libcst."""
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS / "underscore", corpus)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    concise = run_mcpdeps("lint", ".", "--format", "concise", *cache, cwd=corpus)
    assert "MCPD006" in concise.stdout
    first = run_mcpdeps("lint", ".", "--format", "json", *cache, cwd=corpus)
    assert '"fix": {' in first.stdout, "the corpus has a fixable diagnostic"
    for fmt in ("json", "sarif"):
        again = run_mcpdeps(
            "lint", ".", "--format", fmt, *cache, cwd=corpus, env={"PYTHONPROFILEIMPORTTIME": "1"}
        )
        imported = {line.rsplit("|", 1)[-1].strip() for line in again.stderr.splitlines() if "|" in line}
        assert "libcst" not in imported, fmt
        assert again.stdout == run_mcpdeps("lint", ".", "--format", fmt, "--no-cache", cwd=corpus).stdout
