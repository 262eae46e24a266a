"""Checking files in worker processes (`mcpdeps lint --jobs N`).

Each worker builds the graph of a contiguous slice of the files to check (so modules
they share are mostly parsed once per worker) and sends back only the records: small
JSON-like data. Sending graphs back would not pay: unpickling the syntax trees costs as
much as parsing them. Workers are forked, so they inherit the loaded code and the task
without pickling it; the verdicts are the same as with one process because a file's
record never depends on which other files are checked with it (`lint_rules.per_file`),
except a file registering on a server parameter, which is checked in one slice with every
file that may call it (`lint_rules.coupling`).
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from .held_interrupts import ctrl_c_held

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")

_TASK: Callable[[list[str]], object] | None = None
"""The task of the current `check_in_workers` call, inherited by the forked workers."""


def _work(chunk: list[str]) -> object:
    assert _TASK is not None
    return _TASK(chunk)


def available() -> bool:
    """Workers are forked; where `fork` does not exist (Windows) a run stays in one process."""
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def chunks(items: Sequence[str], parts: int) -> list[list[str]]:
    """`parts` contiguous slices of nearly equal length (none empty)."""
    parts = max(1, min(parts, len(items)))
    size, extra = divmod(len(items), parts)
    out, start = [], 0
    for i in range(parts):
        end = start + size + (1 if i < extra else 0)
        out.append(list(items[start:end]))
        start = end
    return out


def check_in_workers(
    origins: Sequence[str],
    jobs: int,
    task: Callable[[list[str]], T],
    progress: Callable[[int, int], None] | None = None,
    parts: int = 0,
    slices: Sequence[Sequence[str]] = (),
) -> list[T]:
    """Run `task` on slices of `origins` in `jobs` forked processes; results in slice order.

    Two slices per worker at least (a slow slice does not idle the other), `parts` when that
    is more (a worker's memory is one slice's); or the caller's `slices` of `origins`, handed
    out in their order (the largest first keeps both workers busy to the end). Empty slices
    are not sent.

    `multiprocessing` and the executor are imported here, not with the module: a run checked
    slice by slice in one process (`chunks`) needs neither."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    global _TASK
    cut = [list(s) for s in slices if s] if slices else chunks(origins, max(jobs * 2, parts))
    _TASK = task
    try:
        with ProcessPoolExecutor(
            jobs, mp_context=multiprocessing.get_context("fork"), initializer=_ignore_interrupts
        ) as pool:
            try:
                with ctrl_c_held():  # the first submit forks the workers: see held_interrupts
                    futures = {pool.submit(_work, s): i for i, s in enumerate(cut)}
                results: dict[int, T] = {}
                done = 0
                for future in as_completed(futures):
                    results[futures[future]] = future.result()  # type: ignore[assignment]
                    done += len(cut[futures[future]])
                    if progress is not None:
                        progress(done, len(origins))
                return [results[i] for i in range(len(cut))]
            except KeyboardInterrupt:
                _abandon(pool)
                raise
    finally:
        _TASK = None


def _ignore_interrupts() -> None:
    """Ctrl+C reaches the whole process group: only the parent acts on it (and ends the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _abandon(pool: ProcessPoolExecutor) -> None:
    """Stop at once: drop the queued slices and end the workers instead of waiting for their slices.

    `_processes` is the executor's own table of its workers (the same from Python 3.8 to 3.13);
    without it, leaving the `with` block would wait for every slice in flight.

    The executor's manager thread is waited for too (`_executor_manager_thread`, as old):
    `shutdown(wait=False)` forgets it, and at exit the interpreter's hook for executors
    (`_python_exit`) then raced the thread's closing of its wake-up pipe, printing
    "Exception ignored ... Bad file descriptor" after one Ctrl+C in about six.
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)
    if manager is not None:
        manager.join(timeout=5)
