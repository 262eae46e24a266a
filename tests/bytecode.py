"""Compile mcpdeps' sources once per session, so that no test subprocess compiles them again.

The suite starts `python -m mcpdeps` some thousands of times. Under
`PYTHONDONTWRITEBYTECODE=1` (set on this machine and in CI), a clean clone never gets
`__pycache__/` for the editable package, and each of those processes compiled every module
it imported from source: 0.15-0.2 s of CPU per process, a fifth of the suite's CPU. The
variable only stops writing; the bytecode written here is read. pip does the same for an
installed wheel (`--compile` is its default), so a test process then starts as a user's does.

Only the package's own folders are compiled (git ignores `__pycache__/`), and of `tests/`
only the suite's own Python: never its corpus or fixtures, which are copied into test
folders and linted there.

The test modules themselves are pytest's: it rewrites their asserts on import and caches the
result beside them, but not under `PYTHONDONTWRITEBYTECODE=1`, so every worker rewrote all
of them again while collecting (4.4 s of a worker's 9.5 s). The controller writes that cache
once, before the workers start, through pytest's own rewriting hook; the workers only read
it, as pytest always does.
"""

from __future__ import annotations

import compileall
import contextlib
import multiprocessing
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
PACKAGE = ("__init__.py", "__main__.py", "cli", "resolver_core", "lint_rules", "templates")
NOT_THE_SUITES = frozenset({"corpus", "serve_fixtures", "snapshots"})
"""Folders of `tests/` that hold what the tests lint, serve or compare: never compiled."""


def compile_package() -> None:
    """Bytecode for every module of the package that is missing or older than its source."""
    for entry in PACKAGE:
        path = REPO / entry
        if path.is_dir():
            compileall.compile_dir(path, quiet=2, force=False)
        else:
            compileall.compile_file(path, quiet=2, force=False)


def suite_modules() -> Iterator[Path]:
    """The suite's own modules: `tests/` and its packages, without what the tests work on."""
    for path in sorted(TESTS.rglob("*.py")):
        if not NOT_THE_SUITES.intersection(path.relative_to(TESTS).parts):
            yield path


def _compile(config: pytest.Config, paths: list[Path]) -> None:
    """Pytest's rewritten bytecode for the modules it rewrites, plain bytecode for the others.

    Pytest's hook decides which is which (test files, conftests, plugins); `_rewrite_test`
    and `_write_pyc` are what its `exec_module` calls. Should a pytest release move them,
    nothing is cached and the workers rewrite as before."""
    try:
        from _pytest.assertion import rewrite
    except ImportError:  # pragma: no cover - pytest without assertion rewriting
        return
    hook = next((h for h in sys.meta_path if isinstance(h, rewrite.AssertionRewritingHook)), None)
    for path in paths:
        name = path.relative_to(TESTS).with_suffix("").as_posix().replace("/", ".")
        if hook is None or not hook._should_rewrite(name, str(path), config.stash[rewrite.assertstate_key]):
            compileall.compile_file(path, quiet=2, force=False)
            continue
        with contextlib.suppress(AttributeError, OSError, SyntaxError):
            pyc = rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(path, pyc) is None:
                source_hash, code = rewrite._rewrite_test(path, config)
                rewrite.try_makedirs(pyc.parent)
                rewrite._write_pyc(config.stash[rewrite.assertstate_key], code, source_hash, pyc)


def compile_suite(config: pytest.Config) -> None:
    """`_compile` over the suite's modules in two forked processes (the controller has nothing
    else to do yet, and the workers wait for it; forked, they share its configuration)."""
    paths = list(suite_modules())
    halves = [
        multiprocessing.get_context("fork").Process(target=_compile, args=(config, paths[i::2]))
        for i in range(2)
    ]
    for half in halves:
        half.start()
    for half in halves:
        half.join()


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller, before any worker starts
        compile_package()
        compile_suite(session.config)
