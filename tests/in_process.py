"""`mcpdeps ARGS` run inside the test process: `mcpdeps.cli.main.main(argv)` on captured streams.

Why: a test of what a command prints or writes has no use for a new interpreter, whose start
(importing typer, rich, click and the command line) cost ten times the command's own work on
a test's small project. Peers do the same: click's `CliRunner`, pre-commit's `main([...])`,
the SDK's in-memory `Client`. Tests whose subject is the process itself (signals, terminals,
installs, start-up imports, transports) start one (`run_mcpdeps(..., fresh=True)`).

A run sees what `python -m mcpdeps ARGS` would see, and leaves the test process as it found it:
- its folder (`cwd`), environment (the whole of `os.environ`), `sys.argv`, standard streams
  (stdin from `input`, else empty; stdout and stderr captured as bytes, decoded as
  `subprocess.run(..., text=True)` decodes them);
- what typer reads from the environment only when imported (`TERMINAL_WIDTH`, `FORCE_COLOR`):
  set from the run's environment, as an interpreter started under it would have it;
- no module of the user's (from outside the interpreter's folders and mcpdeps): those this
  process imported (a test's own `load_server`) are set aside during the run, and those the
  run imported (`call`, `serve`, `graph --live`) are forgotten after it, so a run in another
  folder imports its own `server`;
- the interpreter's default recursion limit (a run raises it for deep syntax trees);
- afterwards: signal handlers, the collector's state, the recursion limit, logging's root,
  warnings filters and `sys.path` are put back;
- the exit code: `SystemExit` as the interpreter maps it, 1 with the traceback for an
  uncaught exception, -2 (killed by SIGINT) for an uncaught KeyboardInterrupt;
- `timeout`: an alarm interrupts the run (in the main thread) and `subprocess.TimeoutExpired`
  is raised, as `subprocess.run` raises it.
Runs hold a lock: the process has one folder and one set of streams.
"""

from __future__ import annotations

import contextlib
import gc
import io
import logging
import os
import signal
import subprocess
import sys
import threading
import traceback
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
"""The checkout, whose root is the `mcpdeps` package."""
KEPT_ROOTS = tuple({os.path.realpath(p) + os.sep for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)})
"""Modules imported from under these stay imported after a run: the standard library and the
installed distributions (the SDK, rich...); so do mcpdeps' own. Any other is the user's, even
from the checkout (the corpus, the examples)."""
RECURSION_LIMIT = 1000
"""CPython's default recursion limit, which a new interpreter starts with (a test's own call
of mcpdeps' parser may have raised this process's, `resolver_core/source.py`)."""
ENCODING = "utf-8"
"""The standard streams' encoding of a process started under the tests' UTF-8 locale."""

_lock = threading.RLock()


class _Timeout(BaseException):
    """Raised by the alarm into the run: a BaseException, so no `except Exception` keeps it."""


def run(
    args: Sequence[str],
    *,
    cwd: str | os.PathLike[str] | None,
    input: str | None,
    env: dict[str, str],
    timeout: float | None,
) -> subprocess.CompletedProcess[str]:
    """`mcpdeps ARGS` in this process, as `subprocess.run([...], capture_output=True, text=True)`
    reports a child's run."""
    command = [sys.executable, "-m", "mcpdeps", *args]
    stdin = io.TextIOWrapper(io.BytesIO((input or "").encode(ENCODING)), encoding=ENCODING)
    stdout = _capture()
    stderr = _capture()
    with _lock, _isolated(list(args), cwd, env, (stdin, stdout, stderr)), _alarm(timeout):
        try:
            code = _main(list(args))
        except _Timeout:
            raise subprocess.TimeoutExpired(command, timeout or 0, _text(stdout), _text(stderr)) from None
    return subprocess.CompletedProcess(command, code, _text(stdout), _text(stderr))


def _main(args: list[str]) -> int:
    """The exit code of `main(args)`, as the interpreter turns its end into one."""
    from mcpdeps.cli.main import main

    try:
        main(args)
    except SystemExit as exc:
        if exc.code is None:
            return 0
        if isinstance(exc.code, int):
            return exc.code & 0xFF
        print(exc.code, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        traceback.print_exc()
        return -signal.SIGINT
    except _Timeout:
        raise
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


def _capture() -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding=ENCODING, newline="\n", write_through=True)


def _text(stream: io.TextIOWrapper) -> str:
    """What `subprocess` makes of the bytes written: decoded, universal newlines."""
    stream.flush()
    data = stream.buffer.getvalue()  # type: ignore[attr-defined]
    return data.decode(ENCODING).replace("\r\n", "\n").replace("\r", "\n")


@contextlib.contextmanager
def _isolated(
    args: list[str],
    cwd: str | os.PathLike[str] | None,
    env: dict[str, str],
    streams: tuple[io.TextIOWrapper, io.TextIOWrapper, io.TextIOWrapper],
) -> Iterator[None]:
    """The process as the run should find it, and as it was again afterwards."""
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_argv = sys.argv
    saved_path = list(sys.path)
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    saved_gc = gc.isenabled()
    saved_recursion = sys.getrecursionlimit()
    saved_signals = _signal_handlers()
    root = logging.getLogger()
    saved_root = (root.level, list(root.handlers))
    try:
        with warnings.catch_warnings():
            os.environ.clear()
            os.environ.update(env)
            sys.setrecursionlimit(RECURSION_LIMIT)
            if cwd is not None:
                os.chdir(cwd)
            sys.argv = [str(PACKAGE / "__main__.py"), *args]
            sys.stdin, sys.stdout, sys.stderr = streams
            with _typer_environment(), _users_modules_set_aside():
                yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        sys.argv = saved_argv
        sys.path[:] = saved_path
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        for number, handler in saved_signals.items():
            with contextlib.suppress(OSError, ValueError, TypeError):
                signal.signal(number, handler)
        sys.setrecursionlimit(saved_recursion)
        if saved_gc:
            gc.enable()
        else:
            gc.disable()
        root.setLevel(saved_root[0])
        root.handlers[:] = saved_root[1]


def _signal_handlers() -> dict[int, object]:
    if threading.current_thread() is not threading.main_thread():
        return {}
    handlers = {}
    for number in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError):
            handler = signal.getsignal(number)
            if handler is not None:  # not set from Python: nothing to put back
                handlers[number] = handler
    return handlers


_verdicts: dict[int, bool] = {}
"""`_is_users` of each module seen (by `id`, the module being kept alive by `sys.modules`)."""


def _is_users(name: str, module: object) -> bool:
    """Whether a module is the user's: imported from outside `KEPT_ROOTS` and not mcpdeps'."""
    if name == "mcpdeps" or name.startswith("mcpdeps.") or name in ("__main__", "__mp_main__"):
        return False
    verdict = _verdicts.get(id(module))
    if verdict is None:
        origin = getattr(module, "__file__", None)
        paths = [origin] if origin else list(getattr(module, "__path__", None) or [])
        verdict = bool(paths) and not all(os.path.realpath(p).startswith(KEPT_ROOTS) for p in paths)
        _verdicts[id(module)] = verdict
    return verdict


@contextlib.contextmanager
def _users_modules_set_aside() -> Iterator[None]:
    """The run imports the user's modules afresh, as a new process would: what this process
    imported from the user's folders (a test's own `load_server`, the test modules) is out of
    `sys.modules` during the run and back after it; what the run imported is forgotten."""
    aside = {name: module for name, module in list(sys.modules.items()) if _is_users(name, module)}
    for name in aside:
        del sys.modules[name]
    before = set(sys.modules)
    try:
        yield
    finally:
        for name in set(sys.modules) - before:
            if _is_users(name, sys.modules[name]):
                _verdicts.pop(id(sys.modules.pop(name)), None)
        sys.modules.update(aside)


@contextlib.contextmanager
def _typer_environment() -> Iterator[None]:
    """typer's settings that it reads from the environment when imported, as an interpreter
    started under the run's environment would have them (the test process imported typer
    under its own)."""
    rich_utils = sys.modules.get("typer.rich_utils")
    if rich_utils is None:
        yield
        return
    saved = (rich_utils.MAX_WIDTH, rich_utils.FORCE_TERMINAL)
    width = os.environ.get("TERMINAL_WIDTH")
    rich_utils.MAX_WIDTH = int(width) if width else None
    force = any(os.environ.get(n) for n in ("GITHUB_ACTIONS", "FORCE_COLOR", "PY_COLORS"))
    rich_utils.FORCE_TERMINAL = False if os.environ.get("_TYPER_FORCE_DISABLE_TERMINAL") else (force or None)
    try:
        yield
    finally:
        rich_utils.MAX_WIDTH, rich_utils.FORCE_TERMINAL = saved


@contextlib.contextmanager
def _alarm(timeout: float | None) -> Iterator[None]:
    """Raise `_Timeout` into the run after `timeout` seconds (only the main thread gets signals)."""
    if not timeout or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(number: int, frame: object) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
