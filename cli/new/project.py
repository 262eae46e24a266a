"""`mcpdeps new server`: render `templates/server/` into a new project folder.

Templates are package data (`templates/server/**.tmpl`, `string.Template` placeholders); a
`dot-` prefix stands for a leading dot so the files are not hidden in the source tree, and the
folder `PACKAGE` is the project's import package (`src/<package>/`, the layout `uv init
--package` writes): each project imports under its own name, so several scaffolded servers
install into one environment without one silently replacing the other's `server`. The
project is first written to a staging folder beside the target and linted there; only a clean
result is moved into place (one rename when the target does not exist yet).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from importlib.resources import files
from pathlib import Path
from string import Template

from ...resolver_core import file_guard
from ...resolver_core.records import record
from ..errors import UserError
from .files import write_atomic
from .specs import package_name

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # Python 3.10: `importlib.resources` is a module there, not a package
    from importlib.abc import Traversable

TEMPLATE_PACKAGE = "mcpdeps.templates"
TEMPLATE_FOLDER = "server"
SUFFIX = ".tmpl"
DOT_PREFIX = "dot-"
PACKAGE_FOLDER = "PACKAGE"
SERVER_MODULE = "server.py"


@record(slots=False)
class Project:
    """A project to create: its folder and its files (relative POSIX path -> text)."""

    root: Path
    files: dict[str, str]
    server: str
    """The server module's relative POSIX path (`src/<package>/server.py`)."""


def _walk(node: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    found: list[tuple[str, Traversable]] = []
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        rel = f"{prefix}{child.name}"
        if child.is_dir():
            if child.name != "__pycache__":
                found.extend(_walk(child, f"{rel}/"))
        elif child.name.endswith(SUFFIX):
            found.append((rel, child))
    return found


def _output_name(rel: str, package: str) -> str:
    *folders, name = rel[: -len(SUFFIX)].split("/")
    if name.startswith(DOT_PREFIX):
        name = "." + name[len(DOT_PREFIX) :]
    return "/".join([*(package if f == PACKAGE_FOLDER else f for f in folders), name])


def render_project(name: str, parent: Path) -> Project:
    """Fill the server templates for project `name` (checked by `check_project_name`) under `parent`."""
    package = package_name(name)
    values = {"name": name, "dist_name": re.sub(r"[._]+", "-", name).lower(), "package": package}
    root = files(TEMPLATE_PACKAGE).joinpath(TEMPLATE_FOLDER)
    rendered = {
        _output_name(rel, package): Template(item.read_text(encoding="utf-8")).substitute(values)
        for rel, item in _walk(root)
    }
    return Project(parent / name, rendered, f"src/{package}/{SERVER_MODULE}")


def check_target(target: Path, force: bool) -> None:
    """A non-empty folder (or a file) in the way is refused unless `--force`."""
    if target.exists() and not target.is_dir():
        raise UserError(f"{target} exists and is not a folder; choose another name or --dir.")
    if target.is_dir() and any(target.iterdir()) and not force:
        raise UserError(
            f"{target} already exists and is not empty; choose another name, or pass --force to "
            "overwrite the files `new server` writes there (other files are left alone)."
        )


def stage(project: Project, *, beside_target: bool = True) -> Path:
    """Write the project into a fresh staging folder and return it.

    Beside the target (same file system, so the final move is one rename), or in the system's
    temporary folder for a dry run, which must not even create the target's parent.
    """
    parent = project.root.parent if beside_target else Path(tempfile.gettempdir())
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=parent, prefix=f".{project.root.name}.", suffix=".mcpdeps-new"))
    except OSError as exc:
        raise UserError(f"cannot create a folder in {parent}: {exc.strerror or exc}.") from exc
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(staging, 0o777 & ~umask)  # mkdtemp's 0o700 would otherwise become the project's mode
    for rel, text in project.files.items():
        write_atomic(staging / rel, text, expected=None)
    return staging


def move_into_place(staging: Path, target: Path) -> None:
    """One rename when the target is absent or empty; else replace our files one by one (atomically)."""
    try:
        if target.is_dir() and not any(target.iterdir()):
            target.rmdir()
        if not target.exists():
            os.rename(staging, target)
            return
        files = sorted(p for p in staging.rglob("*") if p.is_file())
        for path in files:  # every refusal before the first write: all of the project or nothing
            rel = path.relative_to(staging)
            file_guard.check_replaceable(target / rel, target, str(target / rel))
        for path in files:
            destination = target / path.relative_to(staging)
            destination.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, destination)
    except file_guard.Refused as exc:
        raise UserError(f"{exc}; nothing was written into {target}.") from exc
    except OSError as exc:
        raise UserError(f"cannot write the project into {target}: {exc.strerror or exc}.") from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)
