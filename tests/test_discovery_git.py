"""Walked files that git ignores are not checked, and git is asked only where it can answer.

`discovery.discover` asks `git check-ignore` about every file it walks. Outside a repository
git answers nothing (it fails), so it is not started there; inside one (found from the
working folder upward, through a linked folder too, or named by `GIT_DIR`), it is.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from mcpdeps.resolver_core import discovery


def _tree(root: Path) -> None:
    for rel in ("app.py", "pkg/tool.py", "gen/out.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n")


def _displays(paths: list[str], cwd: Path) -> list[str]:
    return [f.display for f in discovery.discover(paths, cwd=cwd)]


def _count_git_runs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    runs: list[list[str]] = []
    real = subprocess.run

    def run(cmd: list[str], *args: object, **kwargs: object) -> object:
        runs.append(cmd)
        return real(cmd, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(subprocess, "run", run)
    return runs


def _init(repo: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    (repo / ".gitignore").write_text("gen/\n")


def test_files_git_ignores_are_skipped_from_the_root_and_a_subfolder(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _tree(repo / "sub")
    _init(repo)
    assert _displays(["."], repo / "sub") == ["app.py", "pkg/tool.py"]
    assert _displays(["sub"], repo) == ["sub/app.py", "sub/pkg/tool.py"]


def test_from_a_linked_folder_git_is_asked_about_the_paths_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git sees the folder the link resolves to, inside the repository: it is asked, and
    answers for the paths spelt as resolved."""
    repo = tmp_path / "repo"
    _tree(repo / "sub")
    _init(repo)
    link = tmp_path / "link"
    link.symlink_to(repo / "sub")
    runs = _count_git_runs(monkeypatch)
    assert _displays([str(repo / "sub")], link) == [f"{repo}/sub/app.py", f"{repo}/sub/pkg/tool.py"]
    assert len(runs) == 1


def test_outside_a_repository_git_is_not_started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if subprocess.run(["git", "rev-parse"], cwd=tmp_path, capture_output=True).returncode == 0:
        pytest.skip("the temporary folder is inside a git repository")
    monkeypatch.delenv("GIT_DIR", raising=False)
    monkeypatch.delenv("GIT_WORK_TREE", raising=False)
    _tree(tmp_path)
    runs = _count_git_runs(monkeypatch)
    assert _displays(["."], tmp_path) == ["app.py", "gen/out.py", "pkg/tool.py"]
    assert runs == []


def test_a_repository_named_by_git_dir_is_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo, work = tmp_path / "repo", tmp_path / "work"
    repo.mkdir()
    _tree(work)
    _init(repo)
    os.replace(repo / ".gitignore", work / ".gitignore")
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(work))
    runs = _count_git_runs(monkeypatch)
    assert _displays(["."], work) == ["app.py", "pkg/tool.py"]
    assert len(runs) == 1
