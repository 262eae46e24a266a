"""`--reload`: run `mcpdeps serve` (without --reload) as a child and restart it on changes.

Why a whole child command rather than uvicorn's reloader: every restart goes
through the same lint gate, import and banner as a first start, and a child that
dies (syntax error, lint refusal, crash at import) simply leaves watchfiles
waiting for the next change, which starts it again once the file is fixed. The loop
is ours (watchfiles' `watch`, over the folders `watched.WatchPlan` picks: not the
caches and virtualenvs beside the sources) so the child gets its own session and exactly one
SIGINT on restart or shutdown; two make uvicorn abort with a traceback. What the
supervisor says goes through an `output.ReloadOutput` (`terminal.TerminalOutput`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from types import FrameType

from ..runner.parent import death_signal_setter
from .output import ReloadOutput
from .watched import WatchPlan, source_changes

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


def run_with_reload(argv: Sequence[str], plan: WatchPlan, output: ReloadOutput) -> int:
    """Serve in a child process, restarting it whenever a watched Python, env or toml file changes."""
    command = [sys.executable, "-m", "mcpdeps", *child_argv(argv)]
    output.watching([*plan.trees, *plan.folders], plan.skipped_at_top())
    previous = signal.signal(signal.SIGTERM, _interrupt)
    child = _start(command)
    code = 0
    try:
        for names in source_changes(plan):
            output.reloading(names)
            _stop(child)
            child = _start(command)
    except KeyboardInterrupt:
        code = 130  # Ctrl+C: the shell's convention
    except _Terminated:
        pass
    finally:
        _stop(child)
        signal.signal(signal.SIGTERM, previous)
    output.stopped()
    return code


class _Terminated(Exception):
    """SIGTERM, turned into an exception so the child is stopped before we exit."""


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


def _start(command: list[str]) -> subprocess.Popen[bytes]:
    """The child runs in its own session: a Ctrl+C (or a group signal) reaches it once, through us.

    On Linux it is also told to die with us (PR_SET_PDEATHSIG), so it never keeps the port alone.
    """
    return subprocess.Popen(
        command,
        env={**os.environ, RELOAD_CHILD_ENV: "1"},
        start_new_session=True,
        preexec_fn=death_signal_setter(),
    )


def _stop(child: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """Interrupt the child (uvicorn shuts down cleanly on one SIGINT), kill it if it hangs."""
    if child.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGINT)
    try:
        child.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait(timeout=grace)
