"""Which files a run looks at, the way ruff and pre-commit users expect.

Folders are walked recursively; version-control folders, virtualenvs, build
output and caches are skipped, and so is whatever git ignores. Files named
explicitly are always checked, like ruff does.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .ignored_by_git import git_ignored
from .records import record

if TYPE_CHECKING:
    import ast

    from .lent_parses import LentParses
    from .module_search import ModuleSearch

Parses = dict[Path, "tuple[str, ast.Module, frozenset[str]]"]
"""Trees parsed before a run's build, by file: the text, its tree and type parameters
(`source.tree_of`), which the build takes instead of parsing the same text again
(`Discovered.parses`, `lent_parses`)."""

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        "__pycache__",
        "build",
        "dist",
        "node_modules",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".mcpdeps_cache",
        "site-packages",
        ".eggs",
    }
)


@record
class SourceFile:
    """A file to check: where it is, and how to show its path to the user."""

    path: Path
    display: str
    explicit: bool = False
    """Named on the command line (always checked) rather than found by walking a folder."""
    companion: bool = False
    """Not given: a project file importing a given one (`companions.importers`), checked for
    what its tools find in the given files, and reported only there."""
    caller: bool = False
    """A companion checked only for calling the run's `register(server)` helpers: the servers
    it passes are followed only into the run's files (`confined`)."""
    reach: Reach | None = None
    """A companion checked for the registrations a given file's come after: the servers it
    passes are followed only into these files (`companions._reach`, `confined`)."""
    unclassified: bool = False
    """A companion checked for the registrations a given file's come after that imports no given
    file: its tools may be registered without being classified (`unclassified.py`)."""


@record
class Reach:
    """The files a companion's servers are followed into (absolute paths), and a key naming
    them in the run's signature (a state judged under other limits is another list's)."""

    paths: frozenset[Path]
    key: str


class GivenFiles:
    """A run's given files, with what a build looks up in them computed once.

    A large run is built slice by slice over the same list (`lint_rules.incremental`):
    each build names every given file (displays, `Graph.checked`) but reads only its
    slice's. Taking every file's absolute path in each build was as much work as
    prefiltering the slice (the stdlib's 1,790 files: 21 slices, 38k `Path.absolute`).
    """

    __slots__ = ("_position", "ahead", "checked", "displays", "files", "lent", "paths", "search")

    def __init__(self, files: Sequence[SourceFile], parses: Parses | None = None) -> None:
        self.files = files
        self.paths = [f.path.absolute() for f in files]
        """Each file's absolute path, in the files' order."""
        self.displays = {path: f.display for path, f in zip(self.paths, files, strict=True)}
        """Absolute path -> how the user named it."""
        self.checked = frozenset(f.display for f in files)
        from .lent_parses import LentParses  # the parser's modules: only once a build starts

        self.lent: LentParses = LentParses()
        """Trees of imported modules one slice's build parsed, for the next slices' builds,
        and those parsed before the first (`parses`: `Discovered.parses`)."""
        for path, (text, tree, type_params) in (parses or {}).items():
            self.lent.keep_parse(path, text, tree, type_params)
        from .module_search import ModuleSearch

        self.search: ModuleSearch = ModuleSearch()
        """Where imports lead, found once for every build of the run (folders are read once)."""
        self._position: dict[Path, int] = {}
        for i, path in enumerate(self.paths):
            self._position.setdefault(path, i)
        self.ahead: dict[Path, bytes | None] = {}
        """Bytes read before a build (`read_ahead`), which the build takes instead of reading."""

    def read_ahead(self, path: Path) -> bytes | None:
        """A given file's bytes, read for a look before its build (the slice plan's sample) and
        kept for the build (`ahead`)."""
        from .source import regular_bytes

        data = self.ahead[path] = regular_bytes(path)
        return data

    def __len__(self) -> int:
        return len(self.files)

    def picked(self, only: Collection[Path] | None) -> Sequence[int]:
        """The positions, in order, of the files in `only` (absolute paths; None: every file)."""
        if only is None:
            return range(len(self.files))
        return sorted(self._position[p] for p in only if p in self._position)


def signature(files: Sequence[SourceFile]) -> list[list[object]]:
    """What a cache compares of a run's files (as JSON): each one's display name, absolute
    path and whether it was named (and `True` after them for a companion, "caller" for a
    companion checked only as a caller, its `Reach.key` for one followed only so far, and
    "registrations" for one whose tools may be left unclassified). A
    file added to a walked folder, or gone, changes it."""
    return [
        [
            f.display,
            str(f.path.absolute()),
            f.explicit,
            *([True] if f.companion else []),
            *(["caller"] if f.caller else []),
            *([f.reach.key] if f.reach is not None else []),
            *(["registrations"] if f.unclassified else []),
        ]
        for f in files
    ]


def _is_venv(directory: Path) -> bool:
    try:
        return (directory / "pyvenv.cfg").is_file()
    except OSError:  # a folder we may not enter (PermissionError): not ours to judge, nor to walk
        return False


def skipped_folder(folder: Path, rel: str, exclude: Sequence[str] = ()) -> bool:
    """A folder never walked into: version control, a virtualenv, build output, a cache, or one
    the `exclude` patterns name (`rel`: its path below the walked folder, `/`-separated).

    Also what `serve --reload` does not watch (`cli/serve/watched.py`): the same folders can
    never hold the sources lint would check."""
    name = folder.name
    return name in SKIP_DIRS or name.endswith(".egg-info") or _is_venv(folder) or _excluded(rel, exclude)


def relative(rel_dir: str, name: str) -> str:
    """The path of `name` in the folder `rel_dir` (`.` for the walked folder itself) below the walk's root."""
    return name if rel_dir == "." else f"{rel_dir}/{name}"


def _excluded(rel: str, patterns: Sequence[str]) -> bool:
    if not patterns:
        return False
    parts = rel.split("/")
    return any(
        fnmatch.fnmatch(rel, pat) or any(fnmatch.fnmatch(part, pat) for part in parts) for pat in patterns
    )


class Discovered(list[SourceFile]):
    """The files to check, and the folders under the given ones that could not be read
    (another user's database volume, mode 700): skipped, and said once by the front ends,
    while the rest is checked."""

    unreadable: list[tuple[str, str]]
    """(display path, why) of each folder that could not be listed."""
    parses: Parses
    """Files parsed to find these (`SpellingSearch.parse`), for the run's build (`GivenFiles`)."""

    def __init__(self, files: Iterable[SourceFile] = (), unreadable: Iterable[tuple[str, str]] = ()) -> None:
        super().__init__(files)
        self.unreadable = list(unreadable)
        self.parses = {}


def unreadable_note(files: Sequence[SourceFile]) -> str | None:
    """One sentence naming the folders that were skipped because they cannot be read; None if none."""
    skipped = getattr(files, "unreadable", None)
    if not skipped:
        return None
    shown = ", ".join(f"{display} ({why})" for display, why in skipped[:5])
    more = f" and {len(skipped) - 5} more" if len(skipped) > 5 else ""
    noun = "folder" if len(skipped) == 1 else "folders"
    return f"{len(skipped)} {noun} cannot be read and {'was' if len(skipped) == 1 else 'were'} skipped: {shown}{more}."


def _walk(
    root: Path, display_root: str, exclude: Sequence[str], unreadable: list[tuple[str, str]] | None = None
) -> Iterable[SourceFile]:
    """The source files under `root`, top-down, each folder's files before its subfolders.

    `os.scandir` tells regular files and folders apart without a `stat` per file (except
    for links, which are followed to see what they point at): a tree of 1,800 files was a
    `stat` of every one of them. Links to folders are not walked into (as `os.walk` with
    `followlinks=False`), and a folder reached twice (a bind mount) is walked once.
    """
    seen_dirs: set[tuple[int, int]] = set()
    todo = [root]
    while todo:
        current = todo.pop()
        try:
            st = current.stat()
            with os.scandir(current) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            if unreadable is not None and not isinstance(exc, FileNotFoundError):
                rel = current.relative_to(root).as_posix()
                display = display_root if rel == "." else relative(display_root.rstrip("/") or ".", rel)
                unreadable.append((display, (exc.strerror or str(exc)).lower()))
            continue
        if (st.st_dev, st.st_ino) in seen_dirs:
            continue
        seen_dirs.add((st.st_dev, st.st_ino))
        rel_dir = current.relative_to(root).as_posix()
        subdirs: list[Path] = []
        for entry in entries:
            name = entry.name
            link = _is_link(entry)
            if _is_dir(entry):
                if not link and not skipped_folder(current / name, relative(rel_dir, name), exclude):
                    subdirs.append(current / name)
                continue
            if not name.endswith((".py", ".pyi")):
                continue
            rel = relative(rel_dir, name)
            if _excluded(rel, exclude):
                continue
            if not link and not entry.is_file():
                continue  # a FIFO, socket or device named `x.py`: not a source file (a FIFO would block)
            file = current / name
            if link:
                try:
                    mode = file.stat().st_mode
                except OSError:
                    mode = None  # dangling link, link loop...: the loader reports why it cannot be read
                if mode is not None and not stat.S_ISREG(mode):
                    continue
            yield SourceFile(file, rel if display_root in ("", ".") else f"{display_root.rstrip('/')}/{rel}")
        todo.extend(reversed(subdirs))


def _is_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:
        return False


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """A folder, or a link to one (listed as a folder by `os.walk`, and not walked into)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def discover(
    paths: Sequence[str | os.PathLike[str]], exclude: Sequence[str] = (), cwd: Path | None = None
) -> list[SourceFile]:
    """Expand files and folders into the Python files to check, in a stable order."""
    cwd = cwd or Path.cwd()
    found: dict[Path, SourceFile] = {}
    walked: list[SourceFile] = []
    unreadable: list[tuple[str, str]] = []
    roots: list[Path] = []
    for raw in paths:
        given = str(raw)
        path = (cwd / given) if not os.path.isabs(given) else Path(given)
        if path.is_dir():
            roots.append(path)
            walked.extend(_walk(path, given, exclude, unreadable))
        else:
            resolved = path.absolute()
            found.setdefault(resolved, SourceFile(resolved, given, explicit=True))
    ignored = git_ignored([f.path for f in walked], cwd, roots)
    for f in walked:
        if not ignored or f.path not in ignored:  # (no `Path` hashing when git ignores nothing)
            path = f.path.absolute()  # the walked file itself when its folder was given absolute
            found.setdefault(path, f if path is f.path else SourceFile(path, f.display))
    return Discovered(sorted(found.values(), key=lambda f: f.display), unreadable)
