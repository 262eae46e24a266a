"""mcpdeps' side of the runner: start a task under the server's interpreter and read its report.

The child gets a pipe for its one JSON report (and, for HTTP, the socket mcpdeps bound);
it runs in its own session, so a Ctrl+C reaches it once, forwarded by us, and on Linux it
is told to die with us (it must never keep a port alone).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

from ...resolver_core.records import slotted
from ..errors import UserError
from . import runner_command
from .interpreter import Interpreter

if TYPE_CHECKING:
    from ...resolver_core.model import Graph


@slotted
class RunningTask:
    """A runner task that reported success: its process (still running for `serve`) and its report."""

    process: subprocess.Popen[bytes]
    interpreter: Interpreter
    report: dict[str, Any]


def start_task(
    interpreter: Interpreter,
    task: str,
    options: dict[str, Any],
    *,
    keep_fds: Sequence[int] = (),
    stdin: int | IO[Any] | None = None,
    stdout: int | IO[Any] | None = None,
) -> RunningTask:
    """Start `task`, wait for its report; a report of failure is a `UserError` (the child is reaped)."""
    read_end, write_end = os.pipe()
    command = runner_command(interpreter.executable, task, json.dumps({**options, "result_fd": write_end}))
    try:
        process = subprocess.Popen(
            command,
            pass_fds=(write_end, *keep_fds),
            stdin=stdin,
            stdout=stdout,
            start_new_session=True,
            preexec_fn=death_signal_setter(),
        )
    except OSError as exc:
        os.close(read_end)
        raise UserError(f"Cannot start {interpreter.describe()}: {exc.strerror or exc}.") from exc
    finally:
        os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        _await_start(pipe, process, interpreter)
        data = pipe.read()
    try:
        report = json.loads(data.decode("utf-8", errors="surrogateescape")) if data else None
    except ValueError:
        report = None
    if report is None or "error" in report:
        code = process.wait()
        if report is None:
            raise UserError(
                f"The server's interpreter {interpreter.executable} stopped (exit code {code}) before "
                "reporting back; what it printed is above."
            )
        raise UserError(report["error"], exit_code=int(report.get("exit_code", 2)))
    return RunningTask(process, interpreter, report)


STARTUP_TIMEOUT = 30.0
"""Seconds an interpreter has to start the runner task (before any user code is imported)."""


def _await_start(pipe: IO[bytes], process: subprocess.Popen[bytes], interpreter: Interpreter) -> None:
    """Wait until the task says it started, or its pipe closes; an interpreter that does
    neither within STARTUP_TIMEOUT (a wrapper script waiting for something) is stopped, with
    everything it started, and that is a `UserError`."""
    ready, _, _ = select.select([pipe], [], [], STARTUP_TIMEOUT)
    if ready:
        return
    with contextlib.suppress(OSError):
        os.killpg(process.pid, signal.SIGKILL)  # its own session: the wrapper and its children
    process.wait()
    raise UserError(
        f"{interpreter.describe()} did not start mcpdeps' runner within {STARTUP_TIMEOUT:.0f}s and was "
        "stopped; nothing was started. Point --python at a Python interpreter, e.g. .venv/bin/python."
    )


def death_signal_setter() -> Callable[[], None] | None:
    """A pre-exec hook calling prctl(PR_SET_PDEATHSIG, SIGTERM), resolved before the fork.

    Only a plain C call runs between fork and exec (loading a library there can deadlock).
    """
    if sys.platform != "linux":
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1

    def hook() -> None:
        prctl(pr_set_pdeathsig, int(signal.SIGTERM))

    return hook


@contextlib.contextmanager
def forwarding_signals(process: subprocess.Popen[bytes]) -> Iterator[list[int]]:
    """While waiting for `process`: SIGINT and SIGTERM are passed on to it once each time they arrive.

    Yields the list of signals forwarded, so the caller can tell a stop from a crash.
    """
    forwarded: list[int] = []

    def forward(signum: int, frame: object) -> None:
        forwarded.append(signum)
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield forwarded
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def wait_for(task: RunningTask) -> tuple[int, bool]:
    """Wait until the task ends: (exit code, whether it was stopped by a signal we forwarded)."""
    with forwarding_signals(task.process) as forwarded:
        code = task.process.wait()
    return code, bool(forwarded)


def stop(task: RunningTask, grace: float = 10.0) -> None:
    """Interrupt the task if it still runs; kill it if it lingers."""
    if task.process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        task.process.send_signal(signal.SIGINT)
    try:
        task.process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        task.process.kill()
        task.process.wait()


def graph_elsewhere(interpreter: Interpreter, spec: str | None, verbose: bool = False) -> Graph:
    """The live `Graph` of the server, built by the runner under `interpreter`.

    Whatever the server prints while it is imported goes to stderr: stdout is the graph's.
    """
    from ...resolver_core.graph_wire import from_wire

    task = start_task(
        interpreter,
        "graph",
        {"spec": spec, "verbose": verbose},  # the child runs in our folder: the spec means the same
        stdin=subprocess.DEVNULL,
        stdout=sys.stderr.fileno(),
    )
    task.process.wait()
    return from_wire(task.report["graph"])
