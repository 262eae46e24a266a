"""Attacks on the report memo (`cli/lint/report_memo.py`): a second `mcpdeps lint` with the
cache must print, write and exit exactly as `mcpdeps lint --no-cache` does at that moment.

Each test changes something a verdict depends on outside the linted files themselves, then
runs the real command twice (cached, then `--no-cache`) as a subprocess and compares.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcpdeps.cli.lint import report_memo
from mcpdeps.lint_rules import api
from test_report_memo import Runs

SERVER = (
    "from mcp.server import MCPServer\nfrom helpers import add\n\nmcp = MCPServer('x')\nmcp.tool()(add)\n"
)
HELPERS = "def add(_a: int, b: int) -> int:\n    return b\n"
"""A tool imported from another module, refused by the SDK (MCPD006) once `helpers` is found."""


def lint(root: Path, cache: Path | None, *args: str) -> tuple[int, str]:
    how = ["--no-cache"] if cache is None else ["--cache-dir", str(cache)]
    env = {**os.environ, "NO_COLOR": "1"}
    command = [sys.executable, "-m", "mcpdeps", "lint", *args, "--format", "concise", *how]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout


def both(root: Path, cache: Path, *args: str) -> tuple[tuple[int, str], tuple[int, str]]:
    return lint(root, cache, *args), lint(root, None, *args)


def test_a_project_root_appearing_changes_where_imports_are_found(tmp_path: Path) -> None:
    """`git init` makes the folder a project root, searched for imports: `helpers` is found.
    (Run in `app/`: unmarked, the folder lint runs in is the project, `search_roots.project_root_of`.)"""
    root, cache = tmp_path / "proj", tmp_path / "cache"
    (root / "app").mkdir(parents=True)
    (root / "app" / "server.py").write_text(SERVER)
    (root / "helpers.py").write_text(HELPERS)
    cached, fresh = both(root / "app", cache, ".")
    assert cached == fresh == (0, cached[1])
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    cached, fresh = both(root / "app", cache, ".")
    assert fresh[0] == 1 and "MCPD006" in fresh[1]
    assert cached == fresh


def test_a_src_folder_appearing_is_searched(tmp_path: Path) -> None:
    root, cache = tmp_path / "proj", tmp_path / "cache"
    (root / "app").mkdir(parents=True)
    (root / "app" / "server.py").write_text(SERVER)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    assert both(root, cache, "app")[0][0] == 0
    (root / "src").mkdir()
    (root / "src" / "helpers.py").write_text(HELPERS)
    cached, fresh = both(root, cache, "app")
    assert fresh[0] == 1 and "MCPD006" in fresh[1]
    assert cached == fresh


def test_a_package_marker_appearing_beside_a_given_file_moves_its_source_root(tmp_path: Path) -> None:
    """`app/__init__.py` makes `app/server.py` the module `app.server`, whose imports are
    looked for from the project root, not from `app/`: `helpers` is no longer found. (The
    server also imports `app.settings`, as a module started with `python -m app.server`
    does: as a script, `python app/server.py`, `helpers` would be found in `app/`,
    `Project._in_packages`.)"""
    root, cache = tmp_path / "proj", tmp_path / "cache"
    (root / "app").mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / "app" / "server.py").write_text(SERVER + "from app import settings\n")
    (root / "app" / "settings.py").write_text("")
    (root / "app" / "helpers.py").write_text(HELPERS)
    cached, fresh = both(root, cache, "app/server.py")
    assert cached == fresh and fresh[0] == 1
    for marker in ("__init__.py", "__init__.pyi"):
        (root / "app" / marker).write_text("")
        cached, fresh = both(root, cache, "app/server.py")
        assert cached == fresh and fresh[0] == 0, marker
        (root / "app" / marker).unlink()
        cached, fresh = both(root, cache, "app/server.py")
        assert cached == fresh and fresh[0] == 1, marker


def test_a_file_too_large_to_read_is_reported_with_its_size_now(tmp_path: Path) -> None:
    """Nothing of it is read or hashed, but its report names its size: a state of its own."""
    root, cache = tmp_path / "proj", tmp_path / "cache"
    root.mkdir()
    big = root / "big.py"
    with big.open("wb") as f:
        f.truncate(21 * 1024 * 1024)  # sparse: nothing is written
    cached, fresh = both(root, cache, ".")
    assert cached == fresh and "(21 MiB)" in fresh[1]
    with big.open("r+b") as f:
        f.truncate(30 * 1024 * 1024)
    cached, fresh = both(root, cache, ".")
    assert cached == fresh and "(30 MiB)" in fresh[1]


def test_a_configuration_edited_during_a_run_is_not_kept_under_its_old_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key is taken from the configuration's bytes before the settings are read: an edit
    in between (a save while a lint-on-save run starts) made a report of the new settings the
    memo of the old bytes, replayed once they were back (an undo)."""
    root, cache = tmp_path / "proj", tmp_path / "cache"
    (root / "app").mkdir(parents=True)
    (root / "app" / "server.py").write_text(SERVER.replace("from helpers import add\n", "") + HELPERS)
    config = root / "mcpdeps.toml"
    config.write_text("")  # MCPD006 is reported
    runs = Runs(root, cache)
    real = api.settings_for

    def saved_meanwhile(*args: object, **kwargs: object) -> object:
        config.write_text('ignore = ["MCPD006"]\n')
        return real(*args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(api, "settings_for", saved_meanwhile)
        assert runs.run(".", "--cache-dir", str(cache))[0] == 0  # judged with the saved settings
    config.write_text("")  # undone
    cached = runs.run(".", "--cache-dir", str(cache))
    fresh = runs.run(".", "--no-cache")
    assert fresh[0] == 1 and "MCPD006" in fresh[1]
    assert cached == fresh


def test_a_new_release_is_named_in_the_replayed_sarif(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SARIF names the tool's version (`mcpdeps.__version__`, the package's `__init__.py`,
    outside the folders whose sources key the memo): a release bump alone changes the report."""
    import mcpdeps

    root, cache = tmp_path / "proj", tmp_path / "cache"
    (root / "app").mkdir(parents=True)
    (root / "app" / "server.py").write_text(SERVER.replace("from helpers import add\n", "") + HELPERS)
    runs = Runs(root, cache)
    report = tmp_path / "report.sarif"
    runs.run(".", "--format", "sarif", "--cache-dir", str(cache), "-o", str(report))
    monkeypatch.setattr(mcpdeps, "__version__", "99.0.0")
    # The next process: the code part of the key is read once per process.
    monkeypatch.setattr(report_memo, "_code", functools.cache(report_memo._code.__wrapped__))
    runs.run(".", "--format", "sarif", "--cache-dir", str(cache), "-o", str(report))
    assert '"99.0.0"' in report.read_text()
