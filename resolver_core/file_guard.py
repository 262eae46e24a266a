"""The one place that decides which files mcpdeps may write or delete.

`lint --fix`, `mcpdeps new` and the lint cache all go through here, so the rules hold for
every write:

- a file mcpdeps rewrites is a regular file inside the project, after links are resolved
  (a link could point anywhere: outside the project, at a system file; a link to a project
  file stays a link, its target is rewritten), with one name (replacing a hard-linked file
  would silently split it from its other names);
- it is replaced only if the user could write it themselves: its permission bits allow it
  (root included: a 0444 file is read-only on purpose), and the replacement keeps its mode
  and its owner (if the owner cannot be kept, as for `nobody` in a world-writable folder
  holding a root-owned file, it is not replaced);
- mcpdeps deletes only files it created, recognisable by their name, and writes a
  `.gitignore` (holding `*`) only into folders it created itself (`own_folder`).

Refusals are `Refused` with one sentence saying why; callers report it and go on.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from pathlib import Path

MARKER = "# Created by mcpdeps"
"""First line of the `.gitignore` mcpdeps writes into a folder it created: what makes it ours."""


class Refused(Exception):
    """mcpdeps will not write or delete this file; the message says why, in one sentence."""


def check_inside(path: Path, root: Path, display: str) -> Path:
    """The file a write to `path` would change, if it is inside `root`: `path` itself, or for a
    link (or a path through a linked folder) what it resolves to. A link out of the project
    (to a system file, to another checkout) is refused."""
    root = Path(os.path.realpath(root))
    target = Path(os.path.realpath(path))
    if not target.is_relative_to(root):
        linked = target != Path(os.path.abspath(path))
        why = f"is a symbolic link to {target}, outside the project" if linked else "is outside the project"
        raise Refused(f"{display} {why}; mcpdeps only writes files inside {root}")
    return target


def _writable_by_us(st: os.stat_result) -> bool:
    """Whether the permission bits let the current user write the file (as `ls -l` reads them)."""
    uid = os.geteuid()
    if uid == 0:
        return bool(st.st_mode & 0o222)  # root bypasses the bits; a file nobody may write stays so
    if st.st_uid == uid:
        return bool(st.st_mode & stat.S_IWUSR)
    if st.st_gid in (os.getegid(), *os.getgroups()):
        return bool(st.st_mode & stat.S_IWGRP)
    return bool(st.st_mode & stat.S_IWOTH)


def _owner_keepable(st: os.stat_result) -> bool:
    """Whether a replacement can have the same owner and group (only root can give files away)."""
    if os.geteuid() == 0:
        return True
    return st.st_uid == os.geteuid() and st.st_gid in (os.getegid(), *os.getgroups())


def check_replaceable(path: Path, root: Path, display: str) -> tuple[Path, os.stat_result | None]:
    """Refuse unless `path` may be replaced (see the module docstring); the file to replace
    (links resolved) and its stat (None when it does not exist yet)."""
    path = check_inside(path, root, display)
    try:
        st = path.lstat()
    except FileNotFoundError:
        return path, None
    if not stat.S_ISREG(st.st_mode):
        raise Refused(f"{display} is not a regular file; mcpdeps only rewrites regular files")
    if st.st_nlink > 1:
        raise Refused(
            f"{display} has {st.st_nlink} hard links; replacing it would split it from the others, "
            "so mcpdeps leaves it alone"
        )
    if not _writable_by_us(st):
        mode = stat.filemode(st.st_mode)
        if not st.st_mode & 0o222:
            raise Refused(f"{display} is read-only ({mode}); mcpdeps does not override that")
        raise Refused(
            f"{display} is not writable by you ({mode}, owner uid {st.st_uid}); it was left as it is"
        )
    if not _owner_keepable(st):
        raise Refused(f"{display} belongs to another user; a replacement would not keep its owner")
    return path, st


def project_of(path: Path, cwd: Path) -> Path:
    """The project a write to `path` must stay inside: the one of `cwd` when `path` is in it,
    else the one holding `path` (pyproject.toml or .git), else its folder."""
    from .search_roots import find_project_root

    path = Path(os.path.abspath(path))
    here = find_project_root(Path(os.path.abspath(cwd))) or Path(os.path.abspath(cwd))
    if path.is_relative_to(here):
        return here
    return find_project_root(path.parent) or path.parent


def check_folder_writable(folder: Path, display: str) -> None:
    """Refuse with a sentence when a file cannot be created in `folder` (before anything is written)."""
    if not os.access(folder, os.W_OK | os.X_OK):
        raise Refused(f"cannot write into {display}: permission denied")


def own_folder(folder: Path) -> bool:
    """Create `folder` if needed; True if it is mcpdeps's (created now, or marked earlier).

    A folder mcpdeps creates gets a `.gitignore` holding `*` (the cache is never committed)
    whose first line is `MARKER`; a folder that existed without it is the user's, and no
    `.gitignore` is ever written into it (`--cache-dir .` must not hide the project from git).
    """
    try:
        folder.mkdir(parents=True)
        created = True
    except FileExistsError:
        created = False
    gitignore = folder / ".gitignore"
    if not created:
        return is_marked(folder)
    with contextlib.suppress(OSError):
        gitignore.write_text(f"{MARKER}: the lint cache is never committed.\n*\n")
    return True


def is_marked(folder: Path) -> bool:
    try:
        with open(folder / ".gitignore", "rb") as f:  # a regular file: `.gitignore` in our folder
            return f.read(len(MARKER)).decode("utf-8", "replace") == MARKER
    except OSError:
        return False


def prunable(path: Path, pattern: re.Pattern[str]) -> bool:
    """Whether mcpdeps may delete `path`: a regular file (never a link) named as it names its own."""
    if not pattern.fullmatch(path.name):
        return False
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def store_pruned(path: Path, text: str, root: Path, pattern: re.Pattern[str], keep: int) -> None:
    """Write `text` to `path` (a cache file named by `pattern`, in folders under `root` that
    mcpdeps owns or creates) as one atomic replacement, then delete all but the `keep` most
    recently written files of that folder that `pattern` names.

    Atomic: a reader sees the old file or the new one, never half of one (two runs may
    share a cache). OSError is the caller's to ignore: a cache never fails a run.
    """
    own_folder(root)
    own_folder(path.parent)
    fd, tmp = _new_file(path.parent, path.suffix)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    kept = sorted((p for p in path.parent.iterdir() if prunable(p, pattern)), key=_mtime, reverse=True)
    for old in kept[keep:]:
        old.unlink(missing_ok=True)


def _new_file(folder: Path, suffix: str) -> tuple[int, str]:
    """A new file of a name nobody holds in `folder` (`.tmp-<random>suffix`), opened for writing,
    readable by its owner only: what `tempfile.mkstemp` makes, without importing `tempfile`
    (with `shutil`, `random` and the compressors, a tenth of a small project's edit run)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        name = os.path.join(folder, f".tmp-{os.urandom(8).hex()}{suffix}")
        try:
            return os.open(name, flags, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {folder}")


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
