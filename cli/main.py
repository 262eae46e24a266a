"""Entry point: sets the process up, starts a well-formed `lint` at once, else the typer app.

`lint` runs on every commit (pre-commit) and every save; most of a warm run used to be
typer's own start-up (`cli/fast_argv.py` says why). So a `lint` command line that
`argv.parse` can read runs without typer (`cli/fast_start.py`), and every other line,
help and errors included, goes through the typer app (`cli/app.py`) as before.

Importing this module (or any of mcpdeps) changes nothing in the process: what a run sets
up is done by `main`, from the command line it is given, so a caller (a test, pre-commit's
own `main([...])` style) may run `main(argv)` as often as it likes in one process.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence
from contextvars import ContextVar

STATIC = ("lint", "graph", "rule", "lsp")
"""The commands that never run user code (but `graph --live`)."""

_command_line: ContextVar[tuple[str, ...]] = ContextVar("mcpdeps_command_line", default=())


def command_line() -> list[str]:
    """The arguments `main` is running (without the program's name): what `serve --reload`
    and its workers start again in a child, which may differ from `sys.argv` when `main`
    was called with a list."""
    return list(_command_line.get() or sys.argv[1:])


def main(argv: Sequence[str] | None = None, *, fast_start: bool = True) -> None:
    """Console-script entry point (and `python -m mcpdeps`); ends by `SystemExit`.

    `argv`: the arguments, without the program's name (default `sys.argv[1:]`).
    `fast_start=False` reads every command line with typer (what `tests/test_lint_argv.py`
    compares the fast start with)."""
    args = list(sys.argv[1:] if argv is None else argv)
    own_process = _own_process() and argv is None
    _set_up(args, own_process)
    token = _command_line.set(tuple(args))
    try:
        try:
            if fast_start and args[:1] == ["lint"]:
                from .fast_start import start_lint

                # exits when it could read the line; returns when typer must
                start_lint(args, own_process=own_process)
            from .app import run_app
        except KeyboardInterrupt:  # Ctrl+C while still starting up: the same quiet 130 as later on
            raise SystemExit(130) from None
        except Exception as exc:
            from .errors import interrupted

            if interrupted(exc):  # the same, landing in a class being created (`errors.interrupted`)
                raise SystemExit(130) from None
            raise
        run_app(args)
    finally:
        _command_line.reset(token)


def _set_up(args: Sequence[str], own_process: bool) -> None:
    """What a run needs of its process, before anything else is imported.

    File names that are not valid UTF-8 are printed as the file system has them, as `ls`
    does, instead of failing every report under a strict UTF-8 locale.

    `lint` and `graph` never run user code, so pydantic plugins (found by scanning every
    installed distribution's entry points when pydantic builds its first model, for the
    settings' table) have nothing to observe: skip that scan. `serve` and `call` import the
    user's server and keep the user's plugins.

    In its own process, `lint` and static `graph` also run once and exit with every syntax
    tree still alive: the cyclic collector would walk them all at each collection
    (importing rich to render the report after a 1,000-module run cost 1.6 s), and reference
    counting frees everything else. Not when called by other code, whose collector it is.
    `lsp` never runs user code either, but lives for hours: it keeps the collector (and
    freezes its parsed project out of it, `cli/lsp/server.py`).
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="surrogateescape")
    if args[:1] and args[0] in STATIC and "--live" not in args:
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
        if own_process and args[0] != "lsp":
            gc.disable()


def _own_process() -> bool:
    """Whether this process runs mcpdeps as its program (the console script, `python -m
    mcpdeps`): then a finished `lint` may end it at once (`fast_start`). A caller's code that
    calls `main()` or runs the module (a `finally`, a test's probe through `runpy`) may go
    on after it: its exit is the ordinary one."""
    program = getattr(sys.modules.get("__main__"), "__file__", None)
    if not program or not sys.argv or os.path.abspath(sys.argv[0]) != os.path.abspath(program):
        return False  # `python -c`, an embedding, `runpy` from another program
    package = os.path.dirname(os.path.abspath(sys.modules["mcpdeps"].__file__ or ""))
    if os.path.abspath(program) == os.path.join(package, "__main__.py"):
        return True
    return os.path.basename(program).lower() in ("mcpdeps", "mcpdeps.exe", "mcpdeps-script.py")
