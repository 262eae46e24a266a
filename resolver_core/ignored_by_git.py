"""Which walked paths git ignores: one `git check-ignore` for all of them, started only where
git can answer.

git answers for paths in the work tree of the repository it finds from the folder it runs in,
and stops at the first path outside that work tree ("is outside repository"), ignoring
nothing. So it is not started when it cannot find a repository (no `.git` at or above the
folder), nor when no walked folder can hold a path of its work tree: a copy of a library
under `/tmp`, linted from a checkout, costs no process. Where that cannot be told for sure
(`GIT_DIR`, a repository whose configuration may move its work tree), git is asked.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path


def git_ignored(paths: list[Path], cwd: Path, walked: Sequence[Path] | None = None) -> set[Path]:
    """Ask git which of these paths it ignores. `walked`: folders holding every path, with no
    link to a folder between them and it (`discovery._walk`'s roots): git is not started when
    none of them can hold a path of a work tree it would find. None: it is asked (when it
    finds a repository)."""
    if not paths:
        return set()
    trees = _work_trees(cwd)
    if trees is not None and (not trees or (walked is not None and not _may_hold(walked, trees))):
        return set()
    import subprocess

    try:
        proc = subprocess.run(
            ["git", "check-ignore", "--stdin", "-z"],
            # Bytes, not text: a file name that is not valid UTF-8 (`bad\\xff.py`) must reach git as is.
            input=b"\0".join(os.fsencode(p) for p in paths) + b"\0",
            capture_output=True,
            cwd=cwd,
            timeout=20,
        )
    except (OSError, subprocess.SubprocessError):
        return set()
    return {Path(os.fsdecode(p)) for p in proc.stdout.split(b"\0") if p}


def _work_trees(cwd: Path) -> tuple[str, ...] | None:
    """The folders git started in `cwd` may take for its work tree: each folder holding a
    `.git` (folder, file or link) at or above `cwd`, as given and as the system resolves it
    (git sees the latter), each also resolved; none when there is none (git fails, "not a git
    repository"). None (anywhere) when `GIT_DIR` or `GIT_WORK_TREE` names one, or when a
    repository's configuration may (`core.worktree`, or an `include` of other settings)."""
    if "GIT_DIR" in os.environ or "GIT_WORK_TREE" in os.environ:
        return None
    holders: dict[str, None] = {}
    for start in (os.path.abspath(cwd), os.path.realpath(cwd)):
        folder = start
        while True:
            if os.path.lexists(os.path.join(folder, ".git")):
                holders[folder] = None
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    if any(_may_move_work_tree(holder) for holder in holders):
        return None
    return tuple(dict.fromkeys([*holders, *map(os.path.realpath, holders)]))


def _may_move_work_tree(holder: str) -> bool:
    """Whether the repository of `holder/.git` may name a work tree other than `holder`: its
    configuration mentions one or includes other files, or cannot be read."""
    dot_git = os.path.join(holder, ".git")
    try:
        if os.path.isdir(dot_git):
            git_dir = dot_git
        else:  # a linked work tree's or a submodule's `gitdir: ...`
            pointer = _read(dot_git)
            if not pointer.startswith(b"gitdir:"):
                return True
            git_dir = os.path.join(holder, os.fsdecode(pointer[len(b"gitdir:") :].strip()))
        configs = [os.path.join(git_dir, "config"), os.path.join(git_dir, "config.worktree")]
        common = os.path.join(git_dir, "commondir")  # a linked work tree's shared repository
        if os.path.exists(common):
            configs.append(os.path.join(git_dir, os.fsdecode(_read(common).strip()), "config"))
        for config in configs:
            if os.path.exists(config):
                text = _read(config).lower()
                if b"worktree" in text or b"include" in text:
                    return True
    except OSError:
        return True
    return False


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read(1 << 20)


def _may_hold(walked: Sequence[Path], trees: tuple[str, ...]) -> bool:
    """Whether a path under one of the folders `walked` (no link to a folder below them) may
    be in one of the work trees `trees` as git tells: the path as written is in one, or a
    folder it names resolves to one (git takes the rest of the path as in that work tree).
    Below a walked folder, that is the folder holding one or being in one; above it, a folder
    resolving to one. Compared without case, as git does on a file system that ignores it."""
    folded = {tree.casefold() for tree in trees}
    for folder in walked:
        written = os.path.abspath(folder)
        if any(_nested(f.casefold(), tree) for f in (written, os.path.realpath(written)) for tree in folded):
            return True
        child, parent = written, os.path.dirname(written)
        while parent != child:
            if os.path.realpath(parent).casefold() in folded:
                return True
            child, parent = parent, os.path.dirname(parent)
    return False


def _nested(a: str, b: str) -> bool:
    """Whether one of the folders `a` and `b` holds the other (or they are one)."""
    try:
        return os.path.commonpath([a, b]) in (a, b)
    except ValueError:  # on two drives
        return False
