"""The lint cache never changes a verdict: same bytes with and without it, and it notices edits
to the given files *and* to modules only reached through imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps

CORPUS = REPO / "tests" / "corpus"


def _json(*args: str, cwd: Path, seed: int | None = None) -> dict:
    """`seed`: runs held to one another's bytes get different numbers (`run_mcpdeps` says why)."""
    proc = run_mcpdeps("lint", "--format", "json", "--exit-zero", *args, cwd=cwd, hash_seed=seed)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_cached_and_uncached_runs_agree_on_the_whole_corpus(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = _json("--no-cache", ".", cwd=CORPUS, seed=0)
    first = _json("--cache-dir", str(cache), ".", cwd=CORPUS, seed=1)
    again = _json("--cache-dir", str(cache), ".", cwd=CORPUS, seed=2)
    assert cold == first == again
    assert cold["diagnostics"], "the corpus has invalid cases: something must be reported"
    assert any(cache.rglob("*.json")), "the second run must have been served from a stored entry"
    assert (cache / ".gitignore").read_text().strip().endswith("*")


def _project(root: Path) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    (root / "deps.py").write_text(
        "from mcp.server.mcpserver import Context\n\n\ndef owner(title: str) -> str:\n    return title\n"
    )
    (root / "server.py").write_text(
        "from typing import Annotated\n"
        "from mcp.server import MCPServer\n"
        "from mcp.server.mcpserver import Resolve\n"
        "from deps import owner\n\n"
        "mcp = MCPServer('p')\n\n\n"
        "@mcp.tool()\n"
        "def show(title: str, who: Annotated[str, Resolve(owner)]) -> str:\n"
        "    return who\n"
    )


def test_editing_an_imported_module_invalidates_the_entry(tmp_path: Path) -> None:
    _project(tmp_path)
    assert _json("server.py", cwd=tmp_path)["diagnostics"] == []
    assert (tmp_path / ".mcpdeps_cache").is_dir(), "the default cache lives at the project root"
    # deps.py was not given on the command line: only the import reaches it.
    (tmp_path / "deps.py").write_text(
        (tmp_path / "deps.py").read_text().replace("def owner(title: str)", "def owner(user_id: str)")
    )
    codes = [d["code"] for d in _json("server.py", cwd=tmp_path)["diagnostics"]]
    assert codes == ["MCPD002"]


def test_a_corrupt_entry_is_a_miss(tmp_path: Path) -> None:
    _project(tmp_path)
    cache = tmp_path / "c"
    expected = _json("--cache-dir", str(cache), "server.py", cwd=tmp_path)
    for entry in cache.rglob("*.json"):
        entry.write_text("{not json")
    assert _json("--cache-dir", str(cache), "server.py", cwd=tmp_path) == expected


def test_concurrent_runs_share_one_cache_safely(tmp_path: Path) -> None:
    _project(tmp_path)
    cache = tmp_path / "shared"
    cmd = [
        sys.executable,
        "-m",
        "mcpdeps",
        "lint",
        "--format",
        "json",
        "--cache-dir",
        str(cache),
        "server.py",
    ]
    procs = [subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, text=True) for _ in range(4)]
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert len({o for o in outputs}) == 1
    assert not list(cache.rglob(".tmp-*")), "no half-written entry is left behind"


@pytest.mark.parametrize("flag", ["--no-cache", None])
def test_cache_flags_leave_no_folder_when_disabled(tmp_path: Path, flag: str | None) -> None:
    _project(tmp_path)
    args = [flag] if flag else []
    _json(*args, "server.py", cwd=tmp_path)
    assert (tmp_path / ".mcpdeps_cache").exists() is (flag is None)


@pytest.mark.parametrize(
    "content",
    ['{"format": 2, "files": 5}', '{"format": 2, "files": [], "records": {"a": 1}}', "[]", "null"],
)
def test_a_state_of_the_wrong_shape_is_a_miss(tmp_path: Path, content: str) -> None:
    _project(tmp_path)
    cache = tmp_path / "c"
    expected = _json("--cache-dir", str(cache), "server.py", cwd=tmp_path)
    for entry in cache.rglob("*.json"):
        entry.write_text(content)
    assert _json("--cache-dir", str(cache), "server.py", cwd=tmp_path) == expected


def test_old_states_are_pruned(tmp_path: Path) -> None:
    """Each set of paths has its own state (pre-commit passes new lists): they do not pile up.
    (The folder is the project of the runs, so its import index is kept beside them.)"""
    from mcpdeps.lint_rules import lint
    from mcpdeps.lint_rules.lint_state import KEEP_STATES

    for i in range(KEEP_STATES + 4):
        (tmp_path / f"m{i}.py").write_text("from mcp.server import MCPServer\n")
        lint([f"m{i}.py"], cwd=tmp_path, cache_dir=tmp_path / "c")
    assert len(list((tmp_path / "c" / "lint").glob("mcpdeps-lint-*.json"))) == KEEP_STATES


def test_one_and_two_worker_processes_give_the_same_report_on_the_corpus() -> None:
    """`--jobs 2` forks workers for a run this size (over 96 files); the bytes must not change."""
    one = _json("--no-cache", "--jobs", "1", ".", cwd=CORPUS, seed=0)
    two = _json("--no-cache", "--jobs", "2", ".", cwd=CORPUS, seed=1)
    assert one["summary"]["files"] >= 96
    assert one == two
