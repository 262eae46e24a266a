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


def _git_would_ignore(paths: list[Path], cwd: Path) -> bytes:
    """What `git check-ignore` itself answers for `paths` asked from `cwd`."""
    given = b"\0".join(os.fsencode(p) for p in paths) + b"\0"
    return subprocess.run(
        ["git", "check-ignore", "--stdin", "-z"], input=given, capture_output=True, cwd=cwd
    ).stdout


def test_a_folder_outside_the_repository_linted_from_inside_it_starts_no_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git stops at the first path outside its work tree and ignores nothing: a copy of a
    library under the temporary folder, linted from a checkout, is walked whole without it."""
    monkeypatch.delenv("GIT_DIR", raising=False)
    monkeypatch.delenv("GIT_WORK_TREE", raising=False)
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    _tree(repo)
    _tree(outside)
    _init(repo)
    walked = [outside / "app.py", outside / "gen/out.py", outside / "pkg/tool.py"]
    assert _git_would_ignore(walked, repo) == b""
    runs = _count_git_runs(monkeypatch)
    assert _displays([str(outside)], repo) == [
        f"{outside}/{p}" for p in ("app.py", "gen/out.py", "pkg/tool.py")
    ]
    assert runs == []


@pytest.mark.parametrize("link_to", ["repo", "parent"])
def test_a_folder_reached_through_a_link_into_the_work_tree_is_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, link_to: str
) -> None:
    """Written outside the repository but naming a folder that resolves into it (the link
    itself, or one above the folder given): git answers for it, so it is asked."""
    monkeypatch.delenv("GIT_DIR", raising=False)
    monkeypatch.delenv("GIT_WORK_TREE", raising=False)
    repo = tmp_path / "box" / "repo"
    _tree(repo)
    _init(repo)
    link = tmp_path / "link"
    link.symlink_to(repo if link_to == "repo" else repo.parent)
    given = link if link_to == "repo" else link / "repo"
    assert _git_would_ignore([given / "gen/out.py"], repo) != b""
    runs = _count_git_runs(monkeypatch)
    assert _displays([str(given)], repo) == [f"{given}/app.py", f"{given}/pkg/tool.py"]
    assert len(runs) == 1


def test_a_work_tree_the_configuration_moves_is_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`core.worktree` puts the work tree of the repository found in the working folder
    elsewhere: git answers for the paths there."""
    monkeypatch.delenv("GIT_DIR", raising=False)
    monkeypatch.delenv("GIT_WORK_TREE", raising=False)
    repo, work = tmp_path / "repo", tmp_path / "work"
    repo.mkdir()
    _tree(work)
    _init(repo)
    os.replace(repo / ".gitignore", work / ".gitignore")
    subprocess.run(["git", "config", "core.worktree", str(work)], cwd=repo, check=True)
    assert _git_would_ignore([work / "gen/out.py"], repo) != b""
    runs = _count_git_runs(monkeypatch)
    assert _displays([str(work)], repo) == [f"{work}/app.py", f"{work}/pkg/tool.py"]
    assert len(runs) == 1
