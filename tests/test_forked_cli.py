"""A forked `mcpdeps` run (`tests/forked_cli.py`) is a fresh `python -m mcpdeps` run, byte for byte.

Most of the suite's runs are forked from a zygote that has already imported the command
line. That is only sound if a test cannot tell the difference, so each case here runs the
same command line both ways, in the same folder and environment, and compares the return
code, both outputs and (for `new` and `--fix`) the files left behind.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import forked_cli
import pytest
from conftest import EXAMPLES, REPO

BASE = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
BASE.pop("FORCE_COLOR", None)
COLOUR = {**{k: v for k, v in os.environ.items() if k != "NO_COLOR"}, "FORCE_COLOR": "1", "COLUMNS": "90"}

CASES: list[tuple[str, list[str], str | None]] = [
    ("lint-full", ["lint", "--no-cache", "bookshop", "broken"], None),
    ("lint-cached", ["lint", "--cache-dir", ".c", "broken"], None),
    ("lint-json", ["lint", "--no-cache", "--format", "json", "broken"], None),
    ("lint-sarif", ["lint", "--no-cache", "--format", "sarif", "broken"], None),
    ("lint-github", ["lint", "--no-cache", "--format", "github", "broken"], None),
    ("lint-statistics", ["lint", "--no-cache", "--statistics", "broken"], None),
    ("lint-diff", ["lint", "--no-cache", "--diff", "broken"], None),
    (
        "lint-stdin",
        ["lint", "--stdin-filename", "server.py", "-"],
        "from mcp.server.mcpserver import MCPServer\n",
    ),
    ("lint-usage-error", ["lint", "--format", "yaml", "broken"], None),
    ("lint-missing", ["lint", "no/such/file.py"], None),
    ("lint-help", ["lint", "--help"], None),
    ("graph", ["graph", "bookshop/server.py"], None),
    ("graph-json", ["graph", "--format", "json", "bookshop/server.py"], None),
    ("graph-mermaid", ["graph", "--format", "mermaid", "broken/server.py"], None),
    ("graph-live", ["graph", "--live", "--format", "json", "bookshop/server.py"], None),
    ("rule", ["rule", "MCPD001"], None),
    ("help", ["--help"], None),
    ("version", ["--version"], None),
    ("unknown-command", ["frobnicate"], None),
    ("new-tool", ["new", "tool", "wave", "--in", "bookshop/server.py", "--arg", "name"], None),
    ("fix", ["lint", "--no-cache", "--fix", "broken"], None),
    ("call", ["call", "--stdio", "bookshop/server.py", "search_books", "--arg", "query=neuro"], None),
]


def _project(folder: Path) -> Path:
    for name in ("bookshop", "broken"):
        shutil.copytree(EXAMPLES / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".c" not in p.relative_to(folder).parts and "__pycache__" not in p.parts
    }


def _fresh(
    args: list[str], cwd: Path, input: str | None, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpdeps", *args],
        cwd=cwd,
        input=input,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _forked(
    args: list[str], cwd: Path, input: str | None, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    done = forked_cli.run_forked(args, cwd=cwd, input=input, env=env, timeout=120)
    assert done is not None
    return done


@pytest.mark.parametrize("env", [BASE, COLOUR], ids=["plain", "colour"])
@pytest.mark.parametrize(("args", "input"), [(a, i) for _, a, i in CASES], ids=[c[0] for c in CASES])
def test_a_forked_run_is_a_fresh_run(
    tmp_path: Path, args: list[str], input: str | None, env: dict[str, str]
) -> None:
    fresh_dir, forked_dir = _project(tmp_path / "fresh"), _project(tmp_path / "forked")
    fresh = _fresh(args, fresh_dir, input, env)
    forked = _forked(args, forked_dir, input, env)
    assert forked.args == fresh.args
    assert (forked.returncode, forked.stdout, forked.stderr) == (
        fresh.returncode,
        fresh.stdout.replace(str(fresh_dir), str(forked_dir)),
        fresh.stderr.replace(str(fresh_dir), str(forked_dir)),
    )
    assert _files(forked_dir) == _files(fresh_dir)


def test_a_forked_run_reads_its_own_folder_and_not_the_zygotes(tmp_path: Path) -> None:
    """`sys.path[0]` is the run's folder, as under `-m`: a user's `cli.py` there is theirs."""
    (tmp_path / "cli.py").write_text("raise SystemExit('the user module was imported')\n", encoding="utf-8")
    shutil.copy(EXAMPLES / "bookshop" / "server.py", tmp_path / "server.py")
    args = ["graph", "--live", "--format", "json", "server.py"]
    fresh, forked = _fresh(args, tmp_path, None, BASE), _forked(args, tmp_path, None, BASE)
    assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


@pytest.mark.parametrize(("name", "command"), [("rich.py", "lint"), ("typer", "graph"), ("json.py", "lint")])
def test_a_folder_that_shadows_a_loaded_module_runs_fresh(tmp_path: Path, name: str, command: str) -> None:
    """A fresh `-m` run imports `rich` from its folder first: the zygote's would not, so no fork."""
    (tmp_path / name).mkdir() if "." not in name else (tmp_path / name).write_text("", encoding="utf-8")
    args = [command, "--help"]
    assert forked_cli.run_forked(args, cwd=tmp_path, input=None, env=BASE, timeout=60) is None
    assert forked_cli.run_forked(args, cwd=tmp_path.parent, input=None, env=BASE, timeout=60) is not None


def test_a_forked_run_past_its_timeout_is_killed_as_subprocess_kills_it(tmp_path: Path) -> None:
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired) as expired:
        forked_cli.run_forked(
            ["serve", str(EXAMPLES / "bookshop" / "server.py"), "-t", "http", "-p", "0"],
            cwd=tmp_path,
            input=None,
            env=BASE,
            timeout=3,
        )
    assert time.monotonic() - started < 20
    assert expired.value.cmd[:3] == [sys.executable, "-m", "mcpdeps"]
    assert isinstance(expired.value.stderr, bytes)  # as `subprocess.run` leaves it


def test_only_an_environment_that_acts_after_start_up_is_forked() -> None:
    assert forked_cli.forkable(BASE)
    assert not forked_cli.forkable({**BASE, "PYTHONPROFILEIMPORTTIME": "1"})
    assert not forked_cli.forkable({**BASE, "PYTHONPATH": str(REPO)})
