"""The report memo (`cli/lint/report_memo.py`): a replayed report is the report.

Every check compares a run that may replay its report with one that cannot (`--no-cache`):
the same bytes on stdout (or in `--output-file`) and the same exit code, whatever changed in
between — a file's text (also where only the ctime shows it), a file added or removed, the
configuration, the environment rich reads, the format. The runs are the real command
(`argv.parse` then `run.run_lint`, as `python -m mcpdeps lint` runs them), in this
process for speed; `test_a_replayed_run_loads_no_rules_no_analyzer_and_no_rich` runs it as a
subprocess, where what it imports can be seen.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcpdeps.cli.lint import report_memo
from mcpdeps.cli.lint.argv import parse
from mcpdeps.cli.lint.run import run_lint
from mcpdeps.resolver_core import file_states
from test_incremental import _edit, _same_size_edit, make_project

WINDOW_NS = 50_000_000
"""The racy window in these tests (the real one is 2 s, for file systems that stamp times
coarsely; this one's stamps are finer): a run waits it out after each edit, so that stats
vouch for files within one example."""

FORMATS = ("full", "concise", "json", "sarif", "github")


class Runs:
    """`mcpdeps lint` in this process, counting the runs that replayed a memo."""

    def __init__(self, root: Path, cache: Path) -> None:
        self.root, self.cache = root, cache
        self.replayed = 0
        self.kept = 0

    def run(self, *argv: str) -> tuple[int, str]:
        args = parse(list(argv))
        assert args is not None, argv
        out = io.StringIO()
        cwd = Path.cwd()
        os.chdir(self.root)
        try:
            with contextlib.redirect_stdout(out):
                code = run_lint(args)
        finally:
            os.chdir(cwd)
        return code, out.getvalue()

    def both(self, fmt: str, *extra: str) -> tuple[tuple[int, str], tuple[int, str]]:
        """(the run that may replay, the one that cannot)."""
        memos = set(self.cache.rglob("mcpdeps-report-*.json"))
        stamps = {p: p.stat().st_mtime_ns for p in memos}
        cached = self.run(".", "--format", fmt, "--cache-dir", str(self.cache), *extra)
        fresh = self.run(".", "--format", fmt, "--no-cache", *extra)
        after = {p: p.stat().st_mtime_ns for p in self.cache.rglob("mcpdeps-report-*.json")}
        if after == stamps and memos:
            self.replayed += 1  # nothing was stored: the report came from a memo
        else:
            self.kept += 1
        return cached, fresh


@pytest.fixture
def short_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(file_states, "RACY_NS", WINDOW_NS)


def _settle() -> None:
    time.sleep(WINDOW_NS / 1e9 * 1.5)


def _config_edit(root: Path, rng: random.Random) -> str:
    ignore = rng.choice([[], ["MCPD110"], ["MCPD002", "MCPD105"]])
    fail_on = rng.choice(["error", "warning", "info"])
    table = f"\n[tool.mcpdeps]\nignore = {json.dumps(ignore)}\nfail-on = {json.dumps(fail_on)}\n"
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n" + table)
    return f"config {ignore} {fail_on}"


def _touch(root: Path, rng: random.Random) -> str:
    path = rng.choice(sorted(root.rglob("*.py")))
    path.write_bytes(path.read_bytes())  # the same bytes, new times: the stat no longer vouches
    return f"touch {path.relative_to(root)}"


@pytest.mark.parametrize("seed", range(6))
def test_replayed_reports_are_what_uncached_runs_print(
    tmp_path: Path, seed: int, short_window: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    root, cache = tmp_path / "proj", tmp_path / "cache"
    make_project(root, rng)
    runs = Runs(root, cache)
    history: list[str] = []
    for _ in range(14):
        step = rng.random()
        if step < 0.25:
            history.append("nothing")
        elif step < 0.45:
            history.append(_edit(root, rng))
        elif step < 0.6:
            history.append(_same_size_edit(root, rng))
        elif step < 0.7:
            history.append(_touch(root, rng))
        elif step < 0.8:
            history.append(_config_edit(root, rng))
        else:
            name, value = rng.choice([("NO_COLOR", "1"), ("FORCE_COLOR", "1"), ("COLUMNS", "61")])
            if rng.random() < 0.5:
                monkeypatch.setenv(name, value)
            else:
                monkeypatch.delenv(name, raising=False)
            history.append(f"env {name}")
        _settle()
        fmt = rng.choice(FORMATS)
        extra = rng.choice([(), ("--statistics",), ("--select", "MCPD1"), ("--exit-zero",)])
        cached, fresh = runs.both(fmt, *extra)
        assert cached == fresh, f"{fmt} {extra} after: {history}"
        if rng.random() < 0.5:  # the same run again: nothing changed, so it replays
            assert runs.both(fmt, *extra)[0] == fresh, f"{fmt} {extra} again, after: {history}"
    assert runs.replayed and runs.kept, (runs.replayed, runs.kept)


def test_a_run_of_another_format_after_an_edit_leaves_no_stale_report(tmp_path: Path) -> None:
    """The memo is checked against the files themselves, not against the lint cache's state,
    which a json run re-checked after the edit: the concise memo must not come back."""
    root, cache = tmp_path / "proj", tmp_path / "cache"
    make_project(root, random.Random(1))
    runs = Runs(root, cache)
    runs.both("concise")
    tools = sorted(root.rglob("tools_*.py"))[0]
    tools.write_text(tools.read_text() + "\ndef broken(:\n")
    cached, fresh = runs.both("json")
    assert cached == fresh
    cached, fresh = runs.both("concise")
    assert cached == fresh and "MCPD000" in fresh[1]


def test_a_file_added_to_a_walked_folder_is_seen(tmp_path: Path) -> None:
    root, cache = tmp_path / "proj", tmp_path / "cache"
    make_project(root, random.Random(2))
    runs = Runs(root, cache)
    runs.both("concise")
    (root / "pkg0" / "late.py").write_text("from mcp.server import MCPServer\n\ndef broken(:\n")
    cached, fresh = runs.both("concise")
    assert cached == fresh and "late.py" in fresh[1]
    (root / ".gitignore").write_text("late.py\n")  # git ignores it: not walked (in a git repo)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    cached, fresh = runs.both("concise")
    assert cached == fresh and "late.py" not in fresh[1]


def test_the_output_file_and_the_exit_code_are_replayed(tmp_path: Path) -> None:
    root, cache = tmp_path / "proj", tmp_path / "cache"
    make_project(root, random.Random(3))
    tools = sorted(root.rglob("tools_*.py"))[0]
    tools.write_text(tools.read_text() + "\ndef broken(:\n")  # an error: exit 1
    runs = Runs(root, cache)
    for _ in range(2):
        report = tmp_path / "report.sarif"
        report.unlink(missing_ok=True)
        cached = runs.run(".", "--format", "sarif", "--cache-dir", str(cache), "-o", str(report))
        replayed = report.read_bytes()
        fresh = runs.run(".", "--format", "sarif", "--no-cache", "-o", str(report))
        assert cached == fresh == (1, "")
        assert replayed == report.read_bytes()
    assert runs.run(".", "--cache-dir", str(cache), "--exit-zero")[0] == 0


@pytest.mark.parametrize(
    "damage",
    [b"", b"{", b"[]", b'{"format": 1}', b"[" * 100_000, "a memo of another key"],
)
def test_a_damaged_memo_is_no_memo(tmp_path: Path, damage: bytes | str) -> None:
    root, cache = tmp_path / "proj", tmp_path / "cache"
    make_project(root, random.Random(4))
    runs = Runs(root, cache)
    first = runs.both("json")[1]
    (memo,) = cache.rglob("mcpdeps-report-*.json")
    if isinstance(damage, str):
        data = json.loads(memo.read_text())
        data["key"], data["text"] = "0" * 64, "not this report"
        memo.write_text(json.dumps(data))
    else:
        memo.write_bytes(damage)
    assert runs.both("json") == (first, first)


def test_memos_are_pruned_and_nothing_else_is(tmp_path: Path) -> None:
    root, cache = tmp_path / "proj", tmp_path / "cache"
    make_project(root, random.Random(5))
    runs = Runs(root, cache)
    (cache / "lint").mkdir(parents=True)
    mine = cache / "lint" / "mcpdeps-report-notours.json"
    mine.write_text("keep me")
    for width in range(report_memo.KEEP_MEMOS + 4):
        with pytest.MonkeyPatch.context() as env:
            env.setenv("COLUMNS", str(60 + width))  # one memo per terminal width
            runs.both("full")
    assert len(list(cache.rglob("mcpdeps-report-*.json"))) == report_memo.KEEP_MEMOS + 1
    assert mine.read_text() == "keep me"


def test_a_replayed_run_loads_no_rules_no_analyzer_and_no_rich(tmp_path: Path) -> None:
    """Through the real entry point: the second run replays, importing none of the rules,
    the analyzer, the diagnostics or rich, and prints the first run's bytes."""
    root = tmp_path / "proj"
    make_project(root, random.Random(6))
    (root / "pkg0" / "late.py").write_text("from mcp.server import MCPServer\n\ndef broken(:\n")
    probe = (
        "import runpy, sys\n"
        "sys.argv = ['mcpdeps', *sys.argv[1:]]\n"
        "try:\n"
        "    runpy.run_module('mcpdeps', run_name='__main__')\n"
        "except SystemExit as exit:\n"
        "    loaded = [m for m in ('pydantic', 'rich', 'typer', 'mcpdeps.lint_rules.registry',\n"
        "              'mcpdeps.resolver_core.builder', 'mcpdeps.resolver_core.diagnostics') if m in sys.modules]\n"
        "    print(exit.code, *loaded, file=sys.stderr)\n"
    )
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("FORCE_COLOR", None)
    command = [
        sys.executable,
        "-c",
        probe,
        "lint",
        ".",
        "--format",
        "full",
        "--cache-dir",
        str(tmp_path / "c"),
    ]
    first = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=120)
    second = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert first.stderr.split()[0] == "1"
    assert first.stderr.split()[1:] == ["rich", "mcpdeps.lint_rules.registry",
                                       "mcpdeps.resolver_core.builder", "mcpdeps.resolver_core.diagnostics"]  # fmt: skip
    assert second.stderr.split() == first.stderr.split()[:1], second.stderr
    assert second.stdout == first.stdout and "MCPD000" in first.stdout
