"""Which Python runs the user's server: `--python`, mcpdeps' own, or the project's.

mcpdeps' own interpreter runs the server (in process, as before) when it can import every
third-party module the server's import closure names; that is decided from source
(`importlib.util.find_spec` on top-level names, which imports nothing). Otherwise the
project's interpreter runs it, found the way `uv run` finds it: an active `VIRTUAL_ENV`,
else `.venv/` (or `venv/`) at the project root.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import field
from pathlib import Path

from ...resolver_core.records import record
from ..errors import UserError

VENV_FOLDERS = (".venv", "venv")


@record
class Interpreter:
    """The Python that runs the server, and why it was chosen (shown in the banner and messages)."""

    executable: Path
    own: bool
    """mcpdeps' own interpreter: the server is imported into this process."""
    reason: str
    missing: tuple[str, ...] = field(default=())
    """Modules the server imports that mcpdeps' own environment cannot find."""

    def describe(self) -> str:
        """`/path/to/python (why)`, for the banner and the stderr note of `call` and `graph --live`."""
        return f"{self.executable} ({self.reason})"


def own_interpreter(reason: str = "mcpdeps' own", missing: Sequence[str] = ()) -> Interpreter:
    return Interpreter(Path(sys.executable), True, reason, tuple(missing))


def choose_interpreter(python: Path | None, server: Path, cwd: Path) -> Interpreter:
    """`--python` when given; else mcpdeps' own when it can import the server's imports; else the project's."""
    if python is not None:
        return _given(python, cwd)
    missing = missing_imports(server, cwd)
    if not missing:
        return own_interpreter()
    lacking = f"mcpdeps' environment lacks {', '.join(missing)}"
    for path, where in _project_interpreters(server, cwd):
        if not _same_environment(path):
            return Interpreter(path.absolute(), False, f"{where}: {lacking}", tuple(missing))
    return own_interpreter(f"mcpdeps' own; no other project environment found, and {lacking}", missing)


def _given(python: Path, cwd: Path) -> Interpreter:
    path = python if python.is_absolute() else cwd / python
    if path.is_dir():  # a venv folder: its interpreter
        inside = _venv_python(path)
        if inside is None:
            raise UserError(f"--python {python} is a folder without bin/python; give the interpreter itself.")
        path = inside
    if not path.is_file() or not os.access(path, os.X_OK):
        raise UserError(f"--python {python} is not an executable file; give a Python interpreter.")
    if _same_environment(path):
        return own_interpreter("--python, mcpdeps' own")
    return Interpreter(path.absolute(), False, "--python")


def _environment(executable: Path) -> Path:
    """The environment an interpreter belongs to: its venv folder, else the real executable."""
    absolute = executable.absolute()
    venv = absolute.parent.parent
    if (venv / "pyvenv.cfg").is_file():
        return venv.resolve()
    return absolute.resolve()


def _same_environment(executable: Path) -> bool:
    return _environment(executable) == _environment(Path(sys.executable))


def _venv_python(folder: Path) -> Path | None:
    for candidate in (folder / "bin" / "python", folder / "Scripts" / "python.exe"):
        if candidate.is_file():
            return candidate
    return None


def _project_interpreters(server: Path, cwd: Path) -> Iterator[tuple[Path, str]]:
    """An active VIRTUAL_ENV, then `.venv/`/`venv/` at the project root (the server's, then cwd's)."""
    active = os.environ.get("VIRTUAL_ENV")
    if active:
        found = _venv_python(Path(active))
        if found is not None:
            yield found, f"the active virtual environment {active}"
    from ...resolver_core.project import find_project_root

    roots = [find_project_root(server.parent), find_project_root(cwd), server.parent, cwd]
    for root in dict.fromkeys(r for r in roots if r is not None):
        for name in VENV_FOLDERS:
            found = _venv_python(root / name)
            if found is not None:
                yield found, f"the project's {name}/"


def missing_imports(server: Path, cwd: Path) -> list[str]:
    """Third-party top-level modules the server's import closure names that this environment lacks."""
    from ...resolver_core.import_closure import external_imports

    try:
        names = external_imports([str(server)], cwd)
    except Exception:  # unreadable sources: the lint gate or the import says why
        return []
    return [name for name in sorted(names) if not _findable(name)]


def _findable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@contextmanager
def explaining_missing(interpreter: Interpreter) -> Iterator[None]:
    """An import that fails on a module this environment lacks says where the server could run instead."""
    try:
        yield
    except UserError as exc:
        if not interpreter.missing or "No module named" not in str(exc):
            raise
        raise UserError(
            f"{exc}\nmcpdeps runs in {interpreter.executable}, which lacks "
            f"{', '.join(interpreter.missing)}, and found no project environment (VIRTUAL_ENV, .venv/ or "
            "venv/ at the project root) to run the server in: create one with the server's dependencies, "
            "or pass --python PATH of an interpreter that has them.",
            exit_code=exc.exit_code,
        ) from exc
