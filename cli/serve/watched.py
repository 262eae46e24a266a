"""What `serve --reload` watches, and which of the changes there restart the server.

inotify (watchfiles' notify backend on Linux) holds one watch per folder, and a recursive
watch adds one for every folder below, whatever the filter later does with the events: a
project root with a `.venv/`, `node_modules/` or a busy `.mcpdeps_cache/` was tens of
thousands of watches set up before watching started, and every write there an event.
So the tree is walked here, skipping the folders lint never walks into
(`discovery.skipped_folder`: version control, virtualenvs, build output, caches, the
config's `exclude`/`extend-exclude`; and what git ignores), and every folder kept is
watched on its own (`recursive=False`). A watched folder's own entries still report, so a folder created later
(a new package, a `git checkout`) shows up as an added entry: the walk is redone and the
sources already inside it count as changed, since they may have been written before the
new watch was set. A folder that can never hold sources (a new `.venv`) is ignored.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ...resolver_core.discovery import relative, skipped_folder
from ...resolver_core.ignored_by_git import git_ignored
from ...resolver_core.records import record
from ..errors import UserError

DEBOUNCE_MS = 400
EXTRA_EXTENSIONS = (".env", ".toml")
"""Watched besides Python sources: an edited `--env-file` or pyproject applies on restart."""


@record
class WatchPlan:
    """The trees walked (the server's source root or each `--reload-dir`), the folders watched
    alone (an `--env-file`'s), and the patterns skipped below the trees."""

    trees: tuple[Path, ...]
    folders: tuple[Path, ...] = ()
    exclude: tuple[str, ...] = ()

    def folders_to_watch(self) -> list[Path]:
        """Every folder watched, once: the trees themselves (always, even one named `.venv`), the
        folders below them that are not skipped, and the lone folders."""
        found: dict[Path, None] = {}
        seen: set[tuple[int, int]] = set()
        for tree in self.trees:
            for folder in _kept_folders(tree, self.exclude, seen):
                found.setdefault(folder, None)
        for folder in self.folders:
            if folder.is_dir():
                found.setdefault(folder, None)
        return list(found)

    def skipped_at_top(self) -> list[str]:
        """The names of the folders skipped right below the trees, as the banner mentions them
        (not `__pycache__`: beside every module, it would be said every time and tell nothing)."""
        names: set[str] = set()
        for tree in self.trees:
            kept: list[Path] = []
            for entry in _folders_in(tree):
                if skipped_folder(tree / entry.name, entry.name, self.exclude):
                    names.add(entry.name)
                else:
                    kept.append(tree / entry.name)
            names.update(folder.name for folder in _ignored_by_git(tree, kept))
        return sorted(names - {"__pycache__"})

    def new_tree(self, path: Path) -> bool:
        """Whether an added entry is a folder that is watched once the walk is redone."""
        if not path.is_dir() or path.is_symlink():
            return False
        for tree in self.trees:
            try:
                rel = path.relative_to(tree)
            except ValueError:
                continue
            parent = tree
            for part in rel.parts:
                parent = parent / part
                if skipped_folder(parent, parent.relative_to(tree).as_posix(), self.exclude):
                    return False
            return not _ignored_by_git(tree, [path])
        return False


def source_changes(plan: WatchPlan) -> Iterator[list[str]]:
    """The names (sorted) of the sources changed in each batch, forever.

    A batch that adds a folder ends the current watch: the walk is redone so the new folder
    (and any below it) is watched, and the sources already in it are reported as changed.
    """
    from watchfiles import Change, PythonFilter, watch

    is_source = PythonFilter(extra_extensions=EXTRA_EXTENSIONS)

    def wanted(change: Change, path: str) -> bool:
        return is_source(change, path) or (change == Change.added and plan.new_tree(Path(path)))

    while True:
        folders = plan.folders_to_watch()
        try:
            for batch in watch(*folders, watch_filter=wanted, debounce=DEBOUNCE_MS, recursive=False):
                added = [
                    Path(path)
                    for change, path in batch
                    if change == Change.added and plan.new_tree(Path(path))
                ]
                names = {Path(path).name for change, path in batch if is_source(change, path)}
                for folder in added:
                    names.update(path.name for path in _sources_in(folder, plan.exclude, is_source))
                if names:
                    yield sorted(names)
                if added:
                    break  # watch again, the new folders included
        except FileNotFoundError:
            continue  # a folder went away between the walk and its watch (a temporary one): walk again
        except OSError as exc:  # inotify's limits (fs.inotify.max_user_watches, max_user_instances)
            raise UserError(
                f"--reload cannot watch these {len(folders)} folders: {exc}. Name fewer with --reload-dir, "
                "or raise the system's inotify limits."
            ) from exc


def _folders_in(folder: Path) -> list[os.DirEntry[str]]:
    """The subfolders of `folder` (not links to folders: they are not walked into, as lint does)."""
    try:
        with os.scandir(folder) as listing:
            return [e for e in listing if _is_folder(e)]
    except OSError:
        return []


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _kept_folders(tree: Path, exclude: Sequence[str], seen: set[tuple[int, int]]) -> Iterator[Path]:
    """`tree` and the folders below it that are not skipped nor git-ignored, each once (a bind
    mount reached twice); a level at a time, so that git is asked once a level."""
    level = [(tree, ".")]
    while level:
        below: list[tuple[Path, str]] = []
        for folder, rel in level:
            try:
                st = folder.stat()
            except OSError:
                continue
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            yield folder
            for entry in _folders_in(folder):
                sub_rel = relative(rel, entry.name)
                if not skipped_folder(folder / entry.name, sub_rel, exclude):
                    below.append((folder / entry.name, sub_rel))
        ignored = _ignored_by_git(tree, [path for path, _ in below])
        level = [(path, rel) for path, rel in below if path not in ignored]


def _ignored_by_git(tree: Path, folders: list[Path]) -> set[Path]:
    """Which of `folders` (below `tree`) git ignores, as lint skips what git ignores; none when
    git ignores the tree itself (a server in an ignored scratch folder is still watched whole)."""
    if not folders:
        return set()
    ignored = git_ignored([tree, *folders], tree)
    return set() if tree in ignored else ignored


def _sources_in(
    folder: Path, exclude: Sequence[str], is_source: Callable[[Any, str], bool]
) -> Iterator[Path]:
    """The watched files already in a new folder (and below it, skipped folders excepted)."""
    from watchfiles import Change

    for sub in _kept_folders(folder, exclude, set()):
        try:
            with os.scandir(sub) as listing:
                files = [Path(e.path) for e in listing if not _is_folder(e)]
        except OSError:
            continue
        yield from (f for f in files if is_source(Change.added, str(f)))


def reload_plan(
    reload_dirs: Sequence[Path] | None, root: Path, server: Path, env_files: Sequence[Path], cwd: Path
) -> WatchPlan:
    """What `serve --reload` watches: each `--reload-dir` as given (else the server's source root),
    plus the folder of each `--env-file` outside them (that folder alone: an env file in the home
    folder must not watch the home folder), skipping what lint's config excludes."""
    trees: list[Path] = []
    for given in reload_dirs or ():
        folder = (cwd / given).resolve()
        if not folder.is_dir():
            raise UserError(f"--reload-dir {given} is not a folder.")
        trees.append(folder)
    trees = trees or [root.resolve()]
    alone = [f.resolve().parent for f in env_files]
    return WatchPlan(
        tuple(dict.fromkeys(trees)),
        tuple(f for f in dict.fromkeys(alone) if not any(f.is_relative_to(t) for t in trees)),
        _config_exclude(server, cwd),
    )


def _config_exclude(server: Path, cwd: Path) -> tuple[str, ...]:
    """`exclude` and `extend-exclude` of the config lint uses for the server (none if it is broken:
    the child's lint gate says why)."""
    from ...lint_rules.config import config_for
    from ...lint_rules.config_files import ConfigError

    try:
        config = config_for([server], None, cwd)
    except (ConfigError, OSError):
        return ()
    return (*config.exclude, *config.extend_exclude)
