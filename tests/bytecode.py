"""Compile mcpdeps' sources once per session, so that no test subprocess compiles them again.

The suite starts `python -m mcpdeps` some thousands of times. Under
`PYTHONDONTWRITEBYTECODE=1` (set on this machine and in CI), a clean clone never gets
`__pycache__/` for the editable package, and each of those processes compiled every module
it imported from source: 0.15-0.2 s of CPU per process, a fifth of the suite's CPU. The
variable only stops writing; the bytecode written here is read. pip does the same for an
installed wheel (`--compile` is its default), so a test process then starts as a user's does.

Only the package's own folders are compiled (git ignores `__pycache__/`): never `tests/`,
whose corpus is copied into test folders and linted there.
"""

from __future__ import annotations

import compileall
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGE = ("__init__.py", "__main__.py", "cli", "resolver_core", "lint_rules", "templates")


def compile_package() -> None:
    """Bytecode for every module of the package that is missing or older than its source."""
    for entry in PACKAGE:
        path = REPO / entry
        if path.is_dir():
            compileall.compile_dir(path, quiet=2, force=False)
        else:
            compileall.compile_file(path, quiet=2, force=False)


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller, before any worker starts
        compile_package()
