"""Entry point: sets the process up, starts a well-formed `lint` at once, else the typer app.

`lint` runs on every commit (pre-commit) and every save; most of a warm run used to be
typer's own start-up (`cli/lint/argv.py` says why). So a `lint` command line that
`argv.parse` can read runs without typer (`cli/fast_start.py`), and every other line,
help and errors included, goes through the typer app (`cli/app.py`) as before.
"""

from __future__ import annotations

import gc
import os
import sys

# `lint` and `graph` never run user code, so pydantic plugins (found by scanning every
# installed distribution's entry points) have nothing to observe: skip that scan.
# `serve` and `call` import the user's server and keep the user's plugins.
# They also run once and exit with every syntax tree still alive: the cyclic collector
# would walk them all at each collection (importing rich to render the report after a
# 1,000-module run cost 1.6 s), and reference counting frees everything else.
# `lsp` never runs user code either, but lives for hours: it keeps the collector (and freezes
# its parsed project out of it, `cli/lsp/server.py`).
if len(sys.argv) > 1 and sys.argv[1] in ("lint", "graph", "rule", "lsp") and "--live" not in sys.argv:
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if sys.argv[1] != "lsp":
        gc.disable()


def main(*, fast_start: bool = True) -> None:
    """Console-script entry point (and `python -m mcpdeps`).

    `fast_start=False` reads every command line with typer (what `tests/test_lint_argv.py`
    compares the fast start with)."""
    # File names that are not valid UTF-8 are printed as the file system has them, as `ls`
    # does, instead of failing every report under a strict UTF-8 locale.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="surrogateescape")
    argv = sys.argv[1:]
    try:
        if fast_start and argv[:1] == ["lint"]:
            from .fast_start import start_lint

            # exits when it could read the line; returns when typer must
            start_lint(argv, own_process=_own_process())
        from .app import run_app
    except KeyboardInterrupt:  # Ctrl+C while still starting up: the same quiet 130 as later on
        raise SystemExit(130) from None
    run_app(argv)


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
