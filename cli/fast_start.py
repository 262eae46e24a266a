"""`mcpdeps lint` without typer, for the command lines `cli/lint/argv.py` can read.

The run is the same function the typer command calls (`cli/lint/run.run_lint`), and
it leaves the process as click's standalone mode would have: the exit code returned, 130
on Ctrl+C, 1 with nothing printed when the reader of stdout has gone (`mcpdeps lint | head`),
and every other failure through `errors.guarded` (exit 2 with a sentence). Typer is not
imported on this path; `tests/test_lint_argv.py` runs the same lines both ways.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn


def start_lint(argv: Sequence[str], *, own_process: bool = False) -> None:
    """Run `argv` (`["lint", ...]`) and exit, unless typer must read it: then return.

    `own_process`: the process runs mcpdeps as its program, and may end without the
    interpreter's teardown (`_leave`)."""
    from .lint.argv import parse

    args = parse(argv[1:])
    if args is None:
        return
    from .errors import guarded
    from .lint.run import run_lint

    guarded(lambda: _standalone(lambda: run_lint(args, _leave if own_process else None)), argv)


def _standalone(run: Callable[[], int]) -> None:
    """Exit as click's standalone mode exits around a command (typer's `_main`); a process of
    its own has left already, from inside the run (`run_lint`'s `leave`)."""
    try:
        code = run()
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        # The reader of our output is gone: exit 1 quietly, and keep the interpreter's final
        # flush of stdout from failing again (what click's PacifyFlushWrapper does).
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                os.dup2(devnull, stream.fileno())
        raise SystemExit(1) from None
    raise SystemExit(code)


def _leave(code: int) -> NoReturn:
    """Exit with `code` without the interpreter's teardown, when nothing is left to run at exit.

    Finalizing frees every module and object one by one: after a run over a large tree (its
    records, texts and the imported analyzer) that was a tenth of the run's CPU. It is called
    from inside the run (`run_lint`'s `leave`), which still holds its build: freed as the run
    returned, that was another 4% of a `-j 1` run.
    By now the report is written, the cache stored and any workers have left (reaped here, so
    their CPU time is this process's children's); so the streams
    are flushed and the process ends, unless something asked to run at exit (an `atexit`
    hook: coverage, `logging`), a thread is still alive, or a tracer or profiler
    (`python -m cProfile`) would lose its results: then the exit is the ordinary one.
    """
    import atexit

    pending = getattr(atexit, "_ncallbacks", None)
    threading = sys.modules.get("threading")  # not imported: no thread was started through it
    if (
        pending is None
        or pending()
        or (threading is not None and threading.active_count() > 1)
        or sys.gettrace() is not None
        or sys.getprofile() is not None
        or sys.flags.inspect
    ):
        raise SystemExit(code)
    workers = sys.modules.get(__name__.replace(".cli.fast_start", ".lint_rules.parallel"))
    if workers is not None:
        workers.reap_left(wait=True)  # gone by now: they left as the report was made
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            os._exit(1)  # the reader of our output is gone: as above, quietly
        raise SystemExit(code) from None  # a full disk...: the ordinary exit reports it as before
    except ValueError:  # a stream closed under us: the ordinary exit copes with it
        raise SystemExit(code) from None
    os._exit(code)
