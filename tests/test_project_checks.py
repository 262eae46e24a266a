"""The checks a contributor's commit goes through: the project's own pre-commit hooks, run by
the real pre-commit, and `.ci/run`, which runs exactly the command the README gives.

The hooks run on a copy of the checkout (every file git tracks or would track) committed in a
temporary git repository, so nothing in the checkout is formatted, cached or written. They
are `language: system` hooks: pre-commit builds no environment, and finds ruff and mcpdeps on
`PATH`, where this interpreter's scripts are put, as in an activated development venv.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps

GIT_ID = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
}


def _env(tmp_path: Path) -> dict[str, str]:
    scripts = str(Path(sys.executable).parent)
    return {
        **os.environ,
        **GIT_ID,
        "PATH": scripts + os.pathsep + os.environ.get("PATH", ""),
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "NO_COLOR": "1",
    }


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A git repository holding the checkout's files as they are now, committed."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    copy = tmp_path / "mcpdeps"
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file() and not source.is_symlink():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, copy / name)
    env = _env(tmp_path)
    for git in (["init", "-q"], ["add", "-A"], ["commit", "-q", "--no-verify", "-m", "snapshot"]):
        subprocess.run(["git", *git], cwd=copy, env=env, capture_output=True, check=True)
    return copy


def _pre_commit(repo: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--color", "never", *args],
        cwd=repo,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_projects_own_hooks_pass_on_the_checkout(checkout: Path, tmp_path: Path) -> None:
    run = _pre_commit(checkout, tmp_path, "--all-files")
    assert run.returncode == 0, run.stdout + run.stderr
    for hook in ("ruff check", "ruff format", "mcpdeps lint"):
        assert re.search(rf"^{hook}\.+Passed$", run.stdout, re.M), run.stdout


def test_the_hooks_stop_a_commit_that_breaks_the_checks(checkout: Path, tmp_path: Path) -> None:
    server = checkout / "cli" / "agent" / "server.py"
    text = server.read_text(encoding="utf-8")
    # An unused import (ruff), a badly formatted line (ruff format) and a tool parameter that
    # the SDK refuses (mcpdeps): each hook fails on its own problem.
    added = "\n\nimport textwrap\n\n\n@server.tool()\ndef shout(_loud:   str) -> str:\n    return _loud\n"
    server.write_text(text + added, encoding="utf-8")
    run = _pre_commit(checkout, tmp_path, "--files", "cli/agent/server.py")
    assert run.returncode == 1
    for hook in ("ruff check", "ruff format", "mcpdeps lint"):
        assert re.search(rf"^{hook}\.+Failed$", run.stdout, re.M), run.stdout
    assert "F401" in run.stdout and "MCPD006" in run.stdout


def test_the_hook_new_server_writes_runs_the_installed_mcpdeps(tmp_path: Path) -> None:
    made = run_mcpdeps("new", "server", "shop", cwd=tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    project = tmp_path / "shop"
    config = (project / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert "repo: local" in config and "rev:" not in config.replace("#     rev:", "")
    env = _env(tmp_path)
    for git in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *git], cwd=project, env=env, capture_output=True, check=True)
    clean = _pre_commit(project, tmp_path, "--all-files")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert re.search(r"^mcpdeps lint\.+Passed$", clean.stdout, re.M), clean.stdout
    server = project / "src" / "shop" / "server.py"
    server.write_text(
        server.read_text(encoding="utf-8")
        + "\n\n@mcp.tool()\ndef hidden(_secret: str) -> str:\n    return _secret\n",
        encoding="utf-8",
    )
    subprocess.run(["git", "add", "-A"], cwd=project, env=env, capture_output=True, check=True)
    broken = _pre_commit(project, tmp_path, "--all-files")
    assert broken.returncode == 1
    assert "MCPD006" in broken.stdout, broken.stdout


def _readme_test_command() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    found = re.search(r"exactly what\s+`\.ci/run`\s+runs.*?```sh\n(?P<command>.*?)\n```", readme, re.S)
    assert found is not None, "the README no longer says which command .ci/run runs"
    return found["command"]


def test_ci_runs_the_readmes_command() -> None:
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line for line in script.splitlines() if line and not line.startswith(("#", "set ", "cd "))]
    assert commands == [_readme_test_command()]
    for check in ("ruff check .", "ruff format --check .", ".ci/typecheck", "pytest"):
        assert check in commands[0]
