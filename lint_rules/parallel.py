"""Checking files in worker processes (`mcpdeps lint --jobs N`).

Each worker builds the graph of a contiguous slice of the files to check (so modules
they share are mostly parsed once per worker) and sends back only the records: small
JSON-like data. Sending graphs back would not pay: unpickling the syntax trees costs as
much as parsing them. Workers are forked, so they inherit the loaded code, the task and
the slices without pickling them; the verdicts are the same as with one process because a
file's record never depends on which other files are checked with it
(`lint_rules.per_file`), except a file registering on a server parameter, which is checked
in one slice with every file that may call it (`lint_rules.coupling`).

The workers are plain `os.fork` children, each told over a pipe which slice to check next
and answering over another: all a run needs of a pool. `concurrent.futures`' process pool
did the same through `multiprocessing`, whose import, feeder and manager threads and
shutdown were a tenth of a 250-module run's wall time, spent before the first slice and
after the last (`benchmarks/README.md`, "A pool of forked children").
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, NoReturn, TypeVar

from .held_interrupts import ctrl_c_held

T = TypeVar("T")

_INDEX = struct.Struct("<i")
"""A slice's index, parent to worker; -1 (or the pipe closed) ends the worker."""
_SIZE = struct.Struct("<Q")
"""The length of a pickled answer, worker to parent, before the answer itself."""


_LEAVING: list[int] = []
"""Workers told to leave and not yet reaped: each call reaps those that have left, and the
rest end with this process (a long-lived one, the language server, runs lint again)."""


class WorkerLost(RuntimeError):
    """A worker ended without answering (killed, out of memory): its slice has no records."""


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
    are not sent. A worker's error is raised here, its traceback as the cause; a Ctrl+C ends
    the workers at once, queued slices and slices in flight alike."""
    cut = [list(s) for s in slices if s] if slices else chunks(origins, max(jobs * 2, parts))
    pool = _Pool(cut, task, progress, len(origins))
    try:
        with ctrl_c_held():  # os.fork runs at-fork hooks: see held_interrupts
            for _ in range(min(jobs, len(cut))):
                pool.fork()
        return pool.results()
    finally:
        pool.close()


@dataclass
class _Worker:
    pid: int
    orders: int
    """The pipe this process writes slice indexes to."""
    answers: int
    """The pipe the worker writes its pickled answers to."""
    received: bytearray = field(default_factory=bytearray)
    busy: int = -1
    """The index of the slice the worker is checking, -1 when none."""


class _Pool(Generic[T]):
    """Forked workers fed slice indexes in order, and their answers as they come."""

    def __init__(
        self,
        cut: list[list[str]],
        task: Callable[[list[str]], T],
        progress: Callable[[int, int], None] | None,
        total: int,
    ) -> None:
        self.cut, self.task, self.progress, self.total = cut, task, progress, total
        self.workers: list[_Worker] = []
        self.next = 0
        self.done: dict[int, T] = {}
        self.checked = 0
        """Files in the slices done, for `progress`."""
        self.poll = select.poll()

    def fork(self) -> None:
        orders_read, orders_write = os.pipe()
        answers_read, answers_write = os.pipe()
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()  # else the child's copy of the buffer could be written twice
        pid = os.fork()
        if pid == 0:
            os.close(orders_write)
            os.close(answers_read)
            for worker in self.workers:  # the pipes of the workers forked before this one
                os.close(worker.orders)
                os.close(worker.answers)
            _serve(self.task, self.cut, orders_read, answers_write)
        os.close(orders_read)
        os.close(answers_write)
        worker = _Worker(pid, orders_write, answers_read)
        self.workers.append(worker)
        self._hand_out(worker)

    def results(self) -> list[T]:
        """Every slice's answer, in slice order, each worker handed the next slice as it
        answers. `poll`, not `select`: a process may hold descriptors past `select`'s 1,024."""
        by_fd = {w.answers: w for w in self.workers}
        for fd in by_fd:
            self.poll.register(fd, select.POLLIN)
        while len(self.done) < len(self.cut):
            for fd, _ in self.poll.poll():
                self._receive(by_fd[fd])
        return [self.done[i] for i in range(len(self.cut))]

    def close(self) -> None:
        """End every worker: any still checking a slice (an error, a Ctrl+C) is terminated
        and waited for; those with nothing left to do read the end of their orders and leave,
        and are reaped when they have (`_LEAVING`): a child's exit frees its copy of the
        heap, milliseconds the report need not wait for."""
        stopped = []
        for worker in self.workers:
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
        self.workers = []
        reap_left()

    def _hand_out(self, worker: _Worker) -> None:
        if self.next < len(self.cut):
            worker.busy = self.next
            self.next += 1
            try:
                os.write(worker.orders, _INDEX.pack(worker.busy))
            except BrokenPipeError:
                raise WorkerLost("a worker process ended between two slices") from None
        else:
            worker.busy = -1

    def _receive(self, worker: _Worker) -> None:
        data = os.read(worker.answers, 1 << 20)
        if not data and worker.busy < 0:  # it had answered for its last slice
            self.poll.unregister(worker.answers)
            return
        if not data:
            files = len(self.cut[worker.busy])
            raise WorkerLost(
                f"a worker process ended before sending the records of the {files} files it checked"
            )
        worker.received += data
        if len(worker.received) < _SIZE.size:
            return
        (size,) = _SIZE.unpack_from(worker.received)
        if len(worker.received) < _SIZE.size + size:
            return
        ok, value = pickle.loads(memoryview(worker.received)[_SIZE.size : _SIZE.size + size])
        del worker.received[: _SIZE.size + size]
        if not ok:
            error, remote = value
            raise error from RemoteTraceback(remote)
        index = worker.busy
        self.done[index] = value
        self.checked += len(self.cut[index])
        self._hand_out(worker)
        if self.progress is not None:
            self.progress(self.checked, self.total)


def _serve(task: Callable[[list[str]], object], cut: list[list[str]], orders: int, answers: int) -> NoReturn:
    """A worker's life: check the slices it is told, answer each, and leave without running
    anything of the parent's (`os._exit`: no at-exit hooks, no buffers flushed twice).

    Ctrl+C reaches the whole process group: only the parent acts on it (and ends the workers)."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        while True:
            order = _read_exactly(orders, _INDEX.size)
            if order is None:
                break
            (index,) = _INDEX.unpack(order)
            if index < 0:
                break
            try:
                answer = pickle.dumps((True, task(cut[index])), pickle.HIGHEST_PROTOCOL)
            except BaseException as error:  # handed to the parent, which raises it
                answer = _failure(error)
            _write_all(answers, _SIZE.pack(len(answer)) + answer)
    finally:
        os._exit(0)


def _failure(error: BaseException) -> bytes:
    """The error pickled with the worker's traceback as text (a pickled exception keeps no
    cause); one that does not pickle becomes a RuntimeError naming it."""
    remote = "".join(traceback.format_exception(error))
    try:
        return pickle.dumps((False, (error, remote)), pickle.HIGHEST_PROTOCOL)
    except Exception:  # any error pickling is replaced by one that pickles
        plain = RuntimeError(f"{type(error).__name__}: {error}")
        return pickle.dumps((False, (plain, remote)), pickle.HIGHEST_PROTOCOL)


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


def reap_left() -> None:
    """Reap the workers told to leave that have left."""
    for pid in list(_LEAVING):
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _LEAVING.remove(pid)
