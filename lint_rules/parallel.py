"""Checking files in worker processes (`mcpdeps lint --jobs N`).

Each worker builds the graph of a contiguous slice of the files to check (so modules
they share are mostly parsed once per worker) and sends back only the records: small
JSON-like data. Sending graphs back would not pay: unpickling the syntax trees costs as
much as parsing them. Workers are forked, so they inherit the loaded code and the run's
functions without pickling them; the verdicts are the same as with one process because a
file's record never depends on which other files are checked with it
(`lint_rules.per_file`), except a file registering on a server parameter, which is checked
in one slice with every file that may call it (`lint_rules.coupling`).

The workers are plain `os.fork` children, each sent over a pipe the name of a task and its
item (a slice and the files built beside it), answering over another: all a run needs of a
pool. `concurrent.futures`' process pool did the same through `multiprocessing`, whose
import, feeder and manager threads and shutdown were a tenth of a 250-module run's wall
time, spent before the first slice and after the last (`benchmarks/README.md`, "A pool of
forked children").
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from .held_interrupts import ctrl_c_held

_SIZE = struct.Struct("<Q")
"""The length of a pickled order or answer, before it: a worker's orders end when its pipe closes."""


_LEAVING: list[int] = []
"""Workers told to leave and not yet reaped: each pool closing reaps those that have left,
and the command line the rest before it ends (`cli.fast_start`)."""


HELD_BELOW = 128 * 1024 * 1024
"""A worker keeps what it built (`hold`) while its peak memory stays under this: it ends with
`os._exit`, so nothing it keeps is ever freed one object at a time (a 250-module build's
graph took 60-70 ms of CPU to free: a tenth of checking it). Past it, each build's graph is
freed before the next (a slice's build adds up to about 100 MB: `slice_plan`)."""
_HELD: list[object] = []
_RELEASES: list[Callable[[], None]] = []


def hold(built: object, release: Callable[[], None] | None = None) -> None:
    """In a worker: keep `built` until the worker ends, or the next `make_room`; `release`:
    what stops using it then (`lent_parses.LentParses.release`)."""
    _HELD.append(built)
    if release is not None:
        _RELEASES.append(release)


def make_room() -> None:
    """In a worker, before a build: free what `hold` kept once the worker's peak memory passed
    `HELD_BELOW` (the new build's memory must come on top of one slice's at most)."""
    if _HELD and _peak_memory() >= HELD_BELOW:
        for release in _RELEASES:
            release()
        _RELEASES.clear()
        _HELD.clear()


def _peak_memory() -> int:
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB elsewhere


class WorkerLost(RuntimeError):
    """A worker ended without answering (killed, out of memory): its item has no answer."""


class RemoteTraceback(Exception):
    """A worker's traceback, as text, set as the cause of the error it raised."""

    def __str__(self) -> str:
        return str(self.args[0])


def available() -> bool:
    """Workers are forked; where `fork` does not exist (Windows) a run stays in one process."""
    return hasattr(os, "fork")


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


Task = Callable[[Any], Any]


class Workers:
    """`jobs` forked workers, each running the `tasks` it is told to by name, on the items it
    is sent, as many times as it is asked, until the pool closes.

    The tasks are the parent's functions as they were at the fork (closures included): only
    their names and items travel, pickled, so a run can fork its workers before it knows
    what they will check (`lint_rules.incremental`: they load the analyzer while this process
    plans the slices, and scan imports for the plan). `start` runs in each worker first.
    A worker's error is raised here, its traceback as the cause; a Ctrl+C, or any error here,
    ends the workers at once, queued items and items in flight alike."""

    def __init__(
        self, jobs: int, tasks: Mapping[str, Task], start: Callable[[], object] | None = None
    ) -> None:
        self._tasks, self._start = tasks, start
        self._workers: list[_Worker] = []
        self._poll = select.poll()
        self._by_fd: dict[int, _Worker] = {}
        try:
            with ctrl_c_held():  # os.fork runs at-fork hooks: see held_interrupts
                for _ in range(max(1, jobs)):
                    self._fork()
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def map(
        self,
        task: str,
        items: Sequence[Any],
        progress: Callable[[int, int], None] | None = None,
        size: Callable[[Any], int] = lambda _: 1,
        meanwhile: Callable[[], object] | None = None,
    ) -> list[Any]:
        """`task` of each item, in the items' order, each worker sent the next item as it
        answers; `progress` told the `size` of the items done against all of them.

        `meanwhile` runs here once per call, when the first worker is left with no item while
        another still works: a core is free until the last answer, and this process has nothing
        to do but wait (what the run does after the workers can start: loading its report's
        modules, which a second call finds loaded)."""
        queue = list(enumerate(items))
        queue.reverse()
        done: dict[int, Any] = {}
        total, counted = sum(map(size, items)), 0
        for worker in self._workers:
            self._hand_out(worker, task, queue)
        while len(done) < len(items):
            if meanwhile is not None and any(w.busy < 0 for w in self._workers):
                meanwhile()
                meanwhile = None
            for fd, _ in self._poll.poll():
                worker = self._by_fd[fd]
                answered = self._receive(worker)
                if answered is None:
                    continue
                index, value = answered
                done[index] = value
                self._hand_out(worker, task, queue)
                counted += size(items[index])
                if progress is not None:
                    progress(counted, total)
        return [done[i] for i in range(len(items))]

    def close(self) -> None:
        """End every worker: any still working on an item (an error, a Ctrl+C) is terminated
        and waited for; the others read the end of their orders and leave, and are reaped
        when they have (`_LEAVING`): a child's exit frees its copy of the heap, milliseconds
        the report need not wait for."""
        stopped = []
        for worker in self._workers:
            os.close(worker.orders)
            os.close(worker.answers)
            if worker.busy >= 0:
                _terminate(worker.pid)
                stopped.append(worker.pid)
            else:
                _LEAVING.append(worker.pid)
        for pid in stopped:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        self._workers = []
        reap_left()

    def _fork(self) -> None:
        orders_read, orders_write = os.pipe()
        answers_read, answers_write = os.pipe()
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()  # else a child writing to it would write the parent's buffer too
        try:
            pid = os.fork()
        except OSError:  # out of processes or memory: the workers forked so far are closed
            for fd in (orders_read, orders_write, answers_read, answers_write):
                os.close(fd)
            raise
        if pid == 0:
            os.close(orders_write)
            os.close(answers_read)
            for worker in self._workers:  # the pipes of the workers forked before this one
                os.close(worker.orders)
                os.close(worker.answers)
            _serve(self._tasks, self._start, orders_read, answers_write)
        os.close(orders_read)
        os.close(answers_write)
        worker = _Worker(pid, orders_write, answers_read)
        self._workers.append(worker)
        self._by_fd[answers_read] = worker
        self._poll.register(answers_read, select.POLLIN)

    def _hand_out(self, worker: _Worker, task: str, queue: list[tuple[int, Any]]) -> None:
        if not queue:
            worker.busy = -1
            return
        worker.busy, item = queue.pop()
        try:
            _write_all(worker.orders, _framed((task, item)))
        except BrokenPipeError:
            raise WorkerLost("a worker process ended between two tasks") from None

    def _receive(self, worker: _Worker) -> tuple[int, Any] | None:
        """The answer `worker` finished sending (its item's index, the value), or None while
        it is still sending one (answers larger than a pipe's buffer arrive in parts)."""
        data = os.read(worker.answers, 1 << 20)
        if not data and worker.busy < 0:  # it had answered for its last item
            self._poll.unregister(worker.answers)
            return None
        if not data:
            raise WorkerLost("a worker process ended before sending what it was checking")
        worker.received += data
        if len(worker.received) < _SIZE.size:
            return None
        (size,) = _SIZE.unpack_from(worker.received)
        if len(worker.received) < _SIZE.size + size:
            return None
        ok, value = pickle.loads(memoryview(worker.received)[_SIZE.size : _SIZE.size + size])
        del worker.received[: _SIZE.size + size]
        if not ok:
            error, remote = value
            raise error from RemoteTraceback(remote)
        return worker.busy, value


@dataclass
class _Worker:
    """A forked worker as the pool sees it: its pipes, what it has sent so far, its item."""

    pid: int
    orders: int
    """The pipe this process writes tasks to."""
    answers: int
    """The pipe the worker writes its pickled answers to."""
    received: bytearray = field(default_factory=bytearray)
    busy: int = -1
    """The index of the item the worker is on, -1 when none."""


def _serve(
    tasks: Mapping[str, Task], start: Callable[[], object] | None, orders: int, answers: int
) -> NoReturn:
    """A worker's life: run the tasks it is told, answer each, and leave without running
    anything of the parent's (`os._exit`: no at-exit hooks, no buffers flushed twice).

    Ctrl+C reaches the whole process group: only the parent acts on it (and ends the workers)."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        failed = None
        if start is not None:
            try:
                start()
            except BaseException as error:  # every task's answer: the parent raises it
                failed = _failure(error)
        while True:
            head = _read_exactly(orders, _SIZE.size)
            body = None if head is None else _read_exactly(orders, _SIZE.unpack(head)[0])
            if body is None:
                break
            name, item = pickle.loads(body)
            try:
                answer = failed or _framed((True, tasks[name](item)))
            except BaseException as error:  # handed to the parent, which raises it
                answer = _failure(error)
            _write_all(answers, answer)
    finally:
        os._exit(0)


def _framed(value: object) -> bytes:
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    return _SIZE.pack(len(data)) + data


def _failure(error: BaseException) -> bytes:
    """The error pickled with the worker's traceback as text (a pickled exception keeps no
    cause); one that does not pickle becomes a RuntimeError naming it."""
    remote = "".join(traceback.format_exception(error))
    try:
        return _framed((False, (error, remote)))
    except Exception:  # any error pickling is replaced by one that pickles
        plain = RuntimeError(f"{type(error).__name__}: {error}")
        return _framed((False, (plain, remote)))


def _read_exactly(fd: int, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        more = os.read(fd, size - len(data))
        if not more:
            return None
        data += more
    return data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _terminate(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)


def reap_left(wait: bool = False) -> None:
    """Reap the workers told to leave that have left; with `wait`, all of them (a process
    about to end: so their CPU time counts as its children's, as `time` and the benchmarks
    read it)."""
    for pid in list(_LEAVING):
        try:
            done, _ = os.waitpid(pid, 0 if wait else os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _LEAVING.remove(pid)
