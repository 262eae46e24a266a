"""uv workspaces: projects installed together, each importing the others' modules.

A `pyproject.toml` declaring `[tool.uv.workspace] members = ["packages/*"]` makes each member
folder (one holding its own pyproject.toml) part of one environment: `uv sync` installs them
all, so `packages/alpha/src/alpha/tools.py` imports `zeta.deps` from `packages/zeta/src/`. A run
on any member's file then has the workspace for its project (`search_roots.project_root_of`:
where the importers of a given file are looked for), and each member's `src/` (its own folder
when it has none: a flat layout) is a search root (`search_roots.default_roots`), as an
installed member is on `sys.path`.
"""

from __future__ import annotations

import functools
import stat
from pathlib import Path

from . import toml_text
from .bounded_read import Unreadable, read_text


def workspace_of(project: Path) -> tuple[Path, list[Path]] | None:
    """The root of the uv workspace `project` (a folder holding pyproject.toml) is the root or a
    member of, and its members' folders; None when the nearest workspace above it (below the
    home folder and the file system's root, nobody's project) does not hold it, or none does."""
    home = Path.home()
    for folder in (project, *project.parents):
        if folder == home or folder.parent == folder:
            return None
        members = _members(folder)
        if members is None:
            continue
        return (folder, members) if folder == project or project in members else None
    return None


def source_roots(members: list[Path]) -> list[Path]:
    """Where each member's modules are imported from once it is installed: its `src/`, or the
    member's own folder (a flat layout)."""
    return [member / "src" if (member / "src").is_dir() else member for member in members]


def _members(folder: Path) -> list[Path] | None:
    """The member folders `folder/pyproject.toml` declares (its `members` globs, less its
    `exclude` ones, each a folder with a pyproject.toml of its own); None when it declares no
    workspace. The globs are matched on every call: a member added is seen at once."""
    pyproject = folder / "pyproject.toml"
    try:
        found = pyproject.stat()
    except OSError:
        return None
    if not stat.S_ISREG(found.st_mode):
        return None
    declared = _declared(str(pyproject), found.st_mtime_ns, found.st_size)
    if declared is None:
        return None
    members, exclude = declared
    excluded = {p for pattern in exclude for p in _matched(folder, pattern)}
    return sorted(
        {
            p
            for pattern in members
            for p in _matched(folder, pattern)
            if p not in excluded and (p / "pyproject.toml").is_file()
        }
    )


def _matched(folder: Path, pattern: str) -> list[Path]:
    """The folders inside `folder` a member glob matches (none outside it, nor for a bad glob)."""
    try:
        return [
            p for p in folder.glob(pattern) if p.is_dir() and p.resolve().is_relative_to(folder.resolve())
        ]
    except (OSError, ValueError, NotImplementedError):
        return []


@functools.lru_cache(maxsize=64)
def _declared(path: str, mtime_ns: int, size: int) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The `members` and `exclude` globs of a pyproject.toml's `[tool.uv.workspace]`, read once
    per version of the file (its modification time and size); None when it declares none."""
    try:
        text = read_text(Path(path), f"the file {path}")
    except (OSError, Unreadable):
        return None
    if "workspace" not in text:
        return None  # (most pyproject.toml files: not parsed, nor the TOML parser imported)
    try:
        data = toml_text.loads(text)
    except ValueError:
        return None
    table: object = data
    for key in ("tool", "uv", "workspace"):
        table = table.get(key) if isinstance(table, dict) else None
    if not isinstance(table, dict):
        return None
    globs = [table.get("members", []), table.get("exclude", [])]
    members, exclude = (
        tuple(g for g in each if isinstance(g, str)) if isinstance(each, list) else () for each in globs
    )
    return members, exclude
