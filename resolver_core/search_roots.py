"""Where a run looks for the modules its files import: the folders given, the project root
(pyproject.toml or .git, else the folder lint runs in; the root of the uv workspace holding it,
`workspaces.py`) and its `src/`, each workspace member's, and the configured `src` entries.

Kept apart from the builder, which imports the analyzer: the lint cache and the report memo
(`cli/lint/report_memo.py`) compare a run's roots with the ones its verdicts were computed
with, and the memo must not load the analyzer to do it. A root that appears (`git init`, a
new `src/`) changes which file an import means without changing any file a verdict read.
"""

from __future__ import annotations

import functools
import itertools
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .workspaces import source_roots, workspace_of

if TYPE_CHECKING:
    from .discovery import SourceFile


def find_project_root(start: Path, known: dict[Path, Path | None] | None = None) -> Path | None:
    """The nearest folder at or above `start` holding pyproject.toml or .git. `known`: the
    answers for folders looked at before, filled in with the folders looked at now."""
    walked: list[Path] = []
    found: Path | None = None
    for directory in itertools.chain((start,), start.parents):  # each made only if reached
        if known is not None and directory in known:
            found = known[directory]
            break
        walked.append(directory)
        if (directory / "pyproject.toml").is_file() or (directory / ".git").exists():
            found = directory
            break
    if known is not None:
        known.update(dict.fromkeys(walked, found))
    return found


def project_root_of(start: Path, cwd: Path) -> Path | None:
    """`find_project_root`, else `cwd` when `start` is inside it: a repository exported
    without `.git` and packaged by a `requirements.txt` alone is still the project `lint .`
    sees from its root, and `lint FILE` run there (what pre-commit passes) must see the same
    one (its importers, its imports). Never the home folder, the temporary folder or the file
    system's root: those are nobody's project, and walking them for importers would read
    everything (`lint /tmp/x/stdlib` run in `/tmp` read every file under it: five minutes and
    23 GB)."""
    return ProjectRoots(cwd).of(start)


class ProjectRoots:
    """`project_root_of` asked for many folders from one `cwd`: the folders of a large tree
    share their parents, so each folder above them is looked at once, and each project found
    for its workspace once."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = Path(os.path.abspath(cwd))
        self._marked: dict[Path, Path | None] = {}
        """`find_project_root`'s answers, by folder."""
        self._projects: dict[Path, Path] = {}
        """The project of each folder found holding a marker (its uv workspace's root, or itself)."""

    def of(self, start: Path) -> Path | None:
        found = find_project_root(start, self._marked)
        if found is not None:
            if found not in self._projects:
                # a uv workspace's member: the workspace is the project
                workspace = workspace_of(found)
                self._projects[found] = workspace[0] if workspace is not None else found
            return self._projects[found]
        return self._unmarked if Path(os.path.abspath(start)).is_relative_to(self.cwd) else None

    @functools.cached_property
    def _unmarked(self) -> Path | None:
        """The project of a folder inside `cwd` with no marker above it: `cwd`, unless that is
        the file system's root or nobody's folder."""
        cwd = self.cwd
        return None if cwd.parent == cwd or cwd in _nobodys_folders() else cwd


def _nobodys_folders() -> tuple[Path, ...]:
    """The folders that hold other people's files, never one project: home and the temporary folder."""
    import tempfile

    return (Path.home(), Path(os.path.realpath(tempfile.gettempdir())), Path(tempfile.gettempdir()))


def default_roots(
    files: Sequence[SourceFile],
    paths: Sequence[str | os.PathLike[str]],
    cwd: Path,
    src: Sequence[str | os.PathLike[str]] = (),
) -> list[Path]:
    """Source roots: given folders, the project root and its `src/`, configured extras."""
    roots = given_folders(paths, cwd)
    # The first given file's project (a run's importers of it are never the anchor).
    anchor = next((f.path.parent for f in files if not f.companion), cwd)
    project_root = project_root_of(anchor, cwd) or find_project_root(cwd)
    if project_root is not None:
        roots.append(project_root)
        if (project_root / "src").is_dir():
            roots.append(project_root / "src")
        workspace = workspace_of(project_root)
        roots.extend(source_roots(workspace[1]) if workspace is not None else ())
    base = project_root or cwd
    roots.extend(((base / s) if not os.path.isabs(s) else Path(s)) for s in src)
    return roots


def given_folders(paths: Sequence[str | os.PathLike[str]], cwd: Path) -> list[Path]:
    out: list[Path] = []
    for raw in paths:
        p = (cwd / raw) if not os.path.isabs(raw) else Path(raw)
        if p.is_dir():
            out.append(p)
    return out


def root_names(roots: Iterable[Path]) -> list[str]:
    """`default_roots` as JSON data, what the caches compare."""
    return [str(r.absolute()) for r in roots]
