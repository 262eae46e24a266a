"""The forked workers of `lint --jobs N` (`lint_rules/parallel.py`): answers in slice order,
a worker's error raised in the run with its traceback, a worker that dies named, and no
worker left running or unreaped. The workers are real forked processes."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import time

import pytest
from mcpdeps.lint_rules import parallel

pytestmark = pytest.mark.skipif(not parallel.available(), reason="workers are forked")


def _running(pid: int) -> bool:
    """Whether `pid` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _own_pid(chunk: list[str]) -> tuple[int, list[str]]:
    return os.getpid(), chunk


def test_answers_come_back_in_slice_order_with_progress() -> None:
    """Each slice's answer at its place whatever worker checked it and when; progress counts
    the files of the slices answered, up to all of them."""
    slices = [["a", "b", "c"], ["d"], ["e", "f"], ["g"], ["h", "i"]]

    def task(chunk: list[str]) -> tuple[int, list[str]]:
        time.sleep(0.01 * len(chunk))
        return _own_pid(chunk)

    seen: list[tuple[int, int]] = []
    out = parallel.check_in_workers(
        [o for s in slices for o in s], 2, task, lambda done, total: seen.append((done, total)), slices=slices
    )
    assert [chunk for _, chunk in out] == slices
    workers = {pid for pid, _ in out}
    assert len(workers) == 2 and os.getpid() not in workers, "two forked workers shared the slices"
    assert [total for _, total in seen] == [9] * 5
    assert [done for done, _ in seen] == sorted(done for done, _ in seen) and seen[-1][0] == 9


def test_slices_are_cut_when_none_are_given() -> None:
    """Without the caller's slices, two per worker at least, none empty, in order."""
    out = parallel.check_in_workers([str(i) for i in range(7)], 2, list)
    assert [o for chunk in out for o in chunk] == [str(i) for i in range(7)]
    assert len(out) == 4 and all(out)


def test_a_workers_error_is_raised_with_its_traceback() -> None:
    """The error a task raised in a worker is raised in the run, the worker's traceback (its
    function, its line) as the cause, as `-v` shows it."""

    def failing(chunk: list[str]) -> int:
        if "boom" in chunk:
            raise ValueError("no records for boom")
        return len(chunk)

    with pytest.raises(ValueError, match="no records for boom") as raised:
        parallel.check_in_workers(["a", "boom", "c", "d"], 2, failing)
    cause = raised.value.__cause__
    assert isinstance(cause, parallel.RemoteTraceback)
    assert "in failing" in str(cause) and 'raise ValueError("no records for boom")' in str(cause)


class _Unpicklable(Exception):
    def __init__(self, handle: object) -> None:
        super().__init__("held a handle")
        self.handle = handle

    def __reduce__(self) -> tuple[object, ...]:
        raise pickle.PicklingError("a handle does not pickle")


def test_an_error_that_does_not_pickle_is_named() -> None:
    """An error the parent could not receive as itself arrives as a RuntimeError naming it."""

    def failing(chunk: list[str]) -> int:
        raise _Unpicklable(object())

    with pytest.raises(RuntimeError, match="_Unpicklable: held a handle"):
        parallel.check_in_workers(["a", "b"], 2, failing)


def test_an_answer_that_does_not_pickle_is_an_error_not_a_hang() -> None:
    with pytest.raises(Exception, match=r"pickle|lambda"):
        parallel.check_in_workers(["a", "b"], 2, lambda chunk: lambda: chunk)


def test_a_worker_that_dies_is_named_and_the_others_end() -> None:
    """A worker killed mid-slice (out of memory, a signal) leaves its slice without records:
    the run says so, and the other worker, still checking, is ended with it."""

    def task(chunk: list[str]) -> int:
        if chunk == ["die"]:
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(30)
        return 0

    before = time.monotonic()
    with pytest.raises(
        parallel.WorkerLost, match="ended before sending the records of the 1 files it checked"
    ):
        parallel.check_in_workers(["die", "slow"], 2, task, slices=[["die"], ["slow"]])
    assert time.monotonic() - before < 10, "the sleeping worker was not waited for"


def test_no_worker_is_left_running() -> None:
    """After a run, every worker has left: those that answered are reaped by the next run."""
    first = {pid for pid, _ in parallel.check_in_workers(["a", "b", "c", "d"], 2, _own_pid)}
    second = {pid for pid, _ in parallel.check_in_workers(["a", "b", "c", "d"], 2, _own_pid)}
    deadline = time.monotonic() + 10
    while any(_running(pid) for pid in first | second) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not any(_running(pid) for pid in first | second)
    parallel.reap_left()
    assert not any(os.path.exists(f"/proc/{pid}") for pid in first), "the first run's workers reaped"


SCRIPT = """
import sys
from mcpdeps.lint_rules.parallel import check_in_workers
sys.stdout.write("before the workers\\n")  # buffered: stdout is a pipe
check_in_workers(["a", "b", "c", "d"], 2, len)
sys.stdout.write("after\\n")
"""


def test_output_buffered_before_the_fork_is_written_once() -> None:
    """A worker is a copy of the run, buffers included; it must not write them again."""
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "before the workers\nafter\n"), done.stderr
