"""`--reload`: run `mcpdeps serve` (without --reload) as a child and restart it on changes.

Why a whole child command rather than uvicorn's reloader: every restart goes
through the same lint gate, import and banner as a first start, and a child that
dies (syntax error, lint refusal, crash at import) simply leaves watchfiles
waiting for the next change, which starts it again once the file is fixed.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console

RELOAD_CHILD_ENV = "MCPDEPS_RELOAD_CHILD"


def child_argv(argv: Sequence[str]) -> list[str]:
    """Our own command line with the reload options removed (the child must not watch too)."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg == "--reload":
            continue
        if arg == "--reload-dir":
            skip = True
            continue
        if arg.startswith("--reload-dir="):
            continue
        out.append(arg)
    return out


def run_with_reload(argv: Sequence[str], watch: Sequence[Path], console: Console) -> int:
    """Serve in a child process, restarting it whenever a watched Python or env file changes."""
    import os

    from watchfiles import PythonFilter, run_process

    command = shlex.join([sys.executable, "-m", "cli", *child_argv(argv)])
    shown = ", ".join(str(p) for p in watch)
    console.print(f"[cyan]mcpdeps serve --reload[/]: watching {shown}; press Ctrl+C to stop")

    def announce(changes: set[tuple[object, str]]) -> None:
        names = sorted({Path(path).name for _, path in changes})
        console.print(f"[cyan]reloading[/]: {', '.join(names)} changed")

    os.environ[RELOAD_CHILD_ENV] = "1"
    run_process(
        *watch,
        target=command,
        target_type="command",
        callback=announce,
        watch_filter=PythonFilter(extra_extensions=(".env", ".toml")),
        debounce=400,
        sigint_timeout=5,
    )
    return 0
