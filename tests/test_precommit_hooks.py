"""The pre-commit hooks of `.pre-commit-hooks.yaml`, run by the real pre-commit on a real git repo.

The hook repository is a snapshot of this checkout committed in a temporary git
repo with fixed dates, so the same code gives the same `rev` and pre-commit
reuses the hook's virtualenv from `PRE_COMMIT_HOME` (kept in the git-ignored
`.mcpdeps_cache/`). That venv is installed offline from a wheelhouse downloaded
once (`pip download`), which keeps a cold run well under a minute and a warm
one to a few seconds.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: a git repository whose hooks pre-commit installs into its own venv.

CACHE = REPO / ".mcpdeps_cache" / "precommit"
SNAPSHOT = [
    "__init__.py",
    "__main__.py",
    "cli",
    "resolver_core",
    "lint_rules",
    "templates",
    "testing",
    "pyproject.toml",
    ".pre-commit-hooks.yaml",
]
FIXED_DATES = {"GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}
GIT_ID = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
}

SERVER = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

import deps

mcp = MCPServer("shop")


@mcp.tool()
def quota(user: str, plan: Annotated[str, Resolve(deps.plan_of)]) -> str:
    return plan
"""
CYCLE = """\
from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Resolve


def plan_of(user: str, quota: Annotated[int, Resolve(check_quota)]) -> str:
    return "pro"


def check_quota(user: str, plan: Annotated[str, Resolve(plan_of)]) -> int:
    return 3
"""
NO_CYCLE = """\
from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Resolve


def check_quota(user: str) -> int:
    return 3


def plan_of(user: str, quota: Annotated[int, Resolve(check_quota)]) -> str:
    return "pro"
"""


def _git(cwd: Path, *args: str) -> str:
    env = {**os.environ, **FIXED_DATES, **GIT_ID}
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()


def _wheelhouse() -> Path:
    """Every wheel the hook's venv needs, downloaded once per machine (file-locked for xdist)."""
    wheels = CACHE / "wheels"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (wheels / ".complete").exists():
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "-q",
                    "-d",
                    str(wheels),
                    str(REPO),
                    "setuptools>=68",
                    "wheel",
                ],
                check=True,
                capture_output=True,
                timeout=600,
            )
            (wheels / ".complete").touch()
    return wheels


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """This checkout's code as a git repo pre-commit can clone: (path, rev)."""
    repo = tmp_path_factory.mktemp("hook-repo")
    for name in SNAPSHOT:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, repo / name)
    (repo / "README.md").write_text("mcpdeps\n", encoding="utf-8")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "snapshot")
    yield repo, _git(repo, "rev-parse", "HEAD")
    # Drop hook envs of snapshots no config uses any more, so the cache does not grow with every change.
    subprocess.run([sys.executable, "-m", "pre_commit", "gc"], env=_env(), capture_output=True, timeout=120)


@pytest.fixture
def project(tmp_path: Path, hook_repo: tuple[Path, str]) -> Path:
    """A user's project: a server module, the module it imports, and a pre-commit config using our hooks."""
    repo, rev = hook_repo
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    (tmp_path / "deps.py").write_text(CYCLE, encoding="utf-8")
    (tmp_path / ".pre-commit-config.yaml").write_text(
        textwrap.dedent(
            f"""\
            repos:
              - repo: {repo}
                rev: {rev}
                hooks:
                  - id: mcpdeps-lint
                    args: [--format, concise]
                  - id: mcpdeps-fix
                    stages: [manual]
            """
        ),
        encoding="utf-8",
    )
    _git(tmp_path, "init", "-q", "-b", "main")
    _git(tmp_path, "add", "-A")
    return tmp_path


def _env() -> dict[str, str]:
    """pre-commit's cache in the repo, and pip offline on the wheelhouse."""
    return {
        **os.environ,
        "PRE_COMMIT_HOME": str(CACHE / "home"),
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(_wheelhouse()),
        "NO_COLOR": "1",
    }


def pre_commit(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--color", "never", *args],
        cwd=project,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_lint_hook_reports_a_cycle_in_a_module_that_was_not_passed(project: Path) -> None:
    first = pre_commit(project, "mcpdeps-lint", "--files", "server.py")
    assert first.returncode == 1, first.stdout + first.stderr
    assert (
        "deps.py:" in first.stdout
        and "MCPD001 resolver cycle: plan_of -> check_quota -> plan_of" in first.stdout
    )

    (project / "deps.py").write_text(NO_CYCLE, encoding="utf-8")
    _git(project, "add", "-A")
    second = pre_commit(project, "mcpdeps-lint", "--files", "server.py")
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Passed" in second.stdout


def test_fix_hook_rewrites_the_file_and_then_passes(project: Path) -> None:
    (project / "deps.py").write_text(NO_CYCLE, encoding="utf-8")
    (project / "server.py").write_text(SERVER.replace("@mcp.tool()", "@mcp.tool"), encoding="utf-8")
    _git(project, "add", "-A")
    first = pre_commit(project, "--hook-stage", "manual", "mcpdeps-fix", "--files", "server.py")
    assert first.returncode == 1  # pre-commit fails a hook that modified files
    assert "files were modified by this hook" in first.stdout
    assert "@mcp.tool()\n" in (project / "server.py").read_text(encoding="utf-8")
    second = pre_commit(project, "--hook-stage", "manual", "mcpdeps-fix", "--files", "server.py")
    assert second.returncode == 0, second.stdout + second.stderr


def test_lint_hook_on_a_changed_resolver_module_alone_catches_the_unchanged_tool_it_breaks(
    project: Path,
) -> None:
    """pre-commit passes only the changed files: here the resolver module, whose new parameter
    the unchanged tool in server.py does not have (the SDK refuses `quota` at start-up)."""
    (project / "deps.py").write_text(NO_CYCLE, encoding="utf-8")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "working server")
    (project / "deps.py").write_text(
        NO_CYCLE.replace("def plan_of(user: str,", "def plan_of(account: str,"), encoding="utf-8"
    )
    _git(project, "add", "deps.py")
    assert _git(project, "diff", "--cached", "--name-only") == "deps.py"
    run = pre_commit(project, "mcpdeps-lint")  # the staged files: deps.py alone
    assert run.returncode == 1, run.stdout + run.stderr
    assert "deps.py:" in run.stdout and "MCPD002" in run.stdout and "'account'" in run.stdout
    assert "server.py:" not in run.stdout

    (project / "deps.py").write_text(CYCLE, encoding="utf-8")
    _git(project, "add", "deps.py")
    cycle = pre_commit(project, "mcpdeps-lint")
    assert cycle.returncode == 1, cycle.stdout + cycle.stderr
    assert "MCPD001 resolver cycle: plan_of -> check_quota -> plan_of" in cycle.stdout
