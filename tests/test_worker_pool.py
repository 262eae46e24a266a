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
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def _run(
    task: Callable[[Any], Any], items: list[Any], progress: Callable[[int, int], None] | None = None
) -> list[Any]:
    """`task` of each item in two forked workers, as a run checks its slices."""
    with parallel.Workers(2, {"task": task}) as workers:
        return workers.map("task", items, progress, len)


def test_answers_come_back_in_slice_order_with_progress() -> None:
    """Each slice's answer at its place whatever worker checked it and when; progress counts
    the files of the slices answered, up to all of them."""
    slices = [["a", "b", "c"], ["d"], ["e", "f"], ["g"], ["h", "i"]]

    def task(chunk: list[str]) -> tuple[int, list[str]]:
        time.sleep(0.01 * len(chunk))
        return _own_pid(chunk)

    seen: list[tuple[int, int]] = []
    out = _run(task, slices, lambda done, total: seen.append((done, total)))
    assert [chunk for _, chunk in out] == slices
    workers = {pid for pid, _ in out}
    assert len(workers) == 2 and os.getpid() not in workers, "two forked workers shared the slices"
    assert [total for _, total in seen] == [9] * 5
    assert [done for done, _ in seen] == sorted(done for done, _ in seen) and seen[-1][0] == 9


def test_workers_take_several_tasks_and_start_with_their_own_work() -> None:
    """Forked before they know their work (as a run forks them before it plans its slices),
    the workers run `start` first, then any of their tasks, as often as they are sent them."""
    started: list[int] = []

    def start() -> None:
        started.append(os.getpid())

    with parallel.Workers(
        2, {"twice": lambda n: 2 * n, "started": lambda _: started}, start=start
    ) as workers:
        assert workers.map("twice", [1, 2, 3]) == [2, 4, 6]
        ran = workers.map("started", [0, 1, 2, 3])
        assert workers.map("twice", [5]) == [10]
    assert started == [], "`start` ran in the workers, not here"
    assert all(len(pids) == 1 and pids[0] != os.getpid() for pids in ran)


def test_a_workers_error_is_raised_with_its_traceback() -> None:
    """The error a task raised in a worker is raised in the run, the worker's traceback (its
    function, its line) as the cause, as `-v` shows it."""

    def failing(chunk: list[str]) -> int:
        if "boom" in chunk:
            raise ValueError("no records for boom")
        return len(chunk)

    with pytest.raises(ValueError, match="no records for boom") as raised:
        _run(failing, [["a"], ["boom"], ["c"], ["d"]])
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
        _run(failing, [["a"], ["b"]])


def test_an_answer_that_does_not_pickle_is_an_error_not_a_hang() -> None:
    with pytest.raises(Exception, match=r"pickle|lambda"):
        _run(lambda chunk: lambda: chunk, [["a"], ["b"]])


def test_a_worker_that_dies_is_named_and_the_others_end() -> None:
    """A worker killed mid-slice (out of memory, a signal) leaves its slice without records:
    the run says so, and the other worker, still checking, is ended with it."""

    def task(chunk: list[str]) -> int:
        if chunk == ["die"]:
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(30)
        return 0

    before = time.monotonic()
    with pytest.raises(parallel.WorkerLost, match="ended before sending what it was checking"):
        _run(task, [["die"], ["slow"]])
    assert time.monotonic() - before < 10, "the sleeping worker was not waited for"


def test_no_worker_is_left_running() -> None:
    """After a run, every worker has left: those that answered are reaped by the next run."""
    first = {pid for pid, _ in _run(_own_pid, [["a"], ["b"], ["c"], ["d"]])}
    second = {pid for pid, _ in _run(_own_pid, [["a"], ["b"], ["c"], ["d"]])}
    deadline = time.monotonic() + 10
    while any(_running(pid) for pid in first | second) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not any(_running(pid) for pid in first | second)
    parallel.reap_left()
    assert not any(os.path.exists(f"/proc/{pid}") for pid in first), "the first run's workers reaped"


SCRIPT = """
import sys
from mcpdeps.lint_rules.parallel import Workers
sys.stdout.write("before the workers\\n")  # buffered: stdout is a pipe
with Workers(2, {"count": len}) as workers:
    workers.map("count", ["a", "b", "c", "d"])
sys.stdout.write("after\\n")
"""


def test_output_buffered_before_the_fork_is_written_once() -> None:
    """A worker is a copy of the run, buffers included; it must not write them again."""
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "before the workers\nafter\n"), done.stderr


def _held(_: object) -> int:
    """In a worker: make room as a build does, keep one more object, say how many are kept."""
    parallel.make_room()
    parallel.hold(object())
    return len(parallel._HELD)


@pytest.mark.parametrize(("bound", "kept"), [(1 << 60, [1, 2, 3]), (0, [1, 1, 1])])
def test_a_worker_keeps_what_it_built_while_its_memory_allows(
    monkeypatch: pytest.MonkeyPatch, bound: int, kept: list[int]
) -> None:
    """A worker ends with `os._exit`, so what it keeps is never freed object by object: it
    keeps each build's graph while its peak memory is under `HELD_BELOW`, and frees the last
    one before the next build once past it."""
    monkeypatch.setattr(parallel, "HELD_BELOW", bound)
    with parallel.Workers(1, {"held": _held}) as workers:
        assert workers.map("held", [0, 1, 2]) == kept
    assert parallel._HELD == [], "kept in the worker, not here"


def test_a_worker_that_cannot_start_says_why() -> None:
    """`start` failing in the workers (the analyzer failing to import) is raised here, with
    the worker's traceback, at the first task, not reported as a worker gone."""

    def start() -> None:
        raise ImportError("no analyzer here")

    with (
        pytest.raises(ImportError, match="no analyzer here") as raised,
        parallel.Workers(2, {"twice": lambda n: 2 * n}, start=start) as workers,
    ):
        workers.map("twice", [1, 2])
    assert "in start" in str(raised.value.__cause__)


def _timed(seconds: float) -> float:
    """Sleep, then say when this worker's item ended (the monotonic clock is the machine's)."""
    time.sleep(seconds)
    return time.monotonic()


def test_meanwhile_runs_once_while_the_last_item_is_checked() -> None:
    """A worker left with nothing to do while another checks the last slice leaves a core free:
    the run's own `meanwhile` (loading its report's modules) runs then, once, not after the
    last answer."""
    ran: list[float] = []
    with parallel.Workers(2, {"timed": _timed}) as workers:
        ends = workers.map("timed", [0.6, 0.0, 0.0, 0.0], meanwhile=lambda: ran.append(time.monotonic()))
    assert len(ran) == 1
    assert ran[0] < ends[0], "while the slow item was still being checked"


def test_lint_with_workers_loads_its_renderer_while_they_finish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`lint` hands the engine its renderer's loading as `meanwhile`, in the report's format;
    one process (`--jobs 1`) has no workers to wait for and loads it as it writes (`report_text`
    writes with what `load_renderer` returns: one list of what each format imports)."""
    from conftest import REPO, run_mcpdeps
    from mcpdeps.cli.lint import render_report
    from mcpdeps.lint_rules import slice_plan

    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))
    from gen_shapes import generate

    generate(tmp_path, 24, "dense", 1, errors=0.5)
    monkeypatch.setattr(slice_plan, "MIN_FILES_PER_JOB", 4)  # workers on a tree this small
    loaded: list[str] = []
    load = render_report.load_renderer

    def loading(fmt: str, statistics: bool = False) -> render_report.Writer:
        loaded.append(fmt)
        return load(fmt, statistics)

    monkeypatch.setattr(render_report, "load_renderer", loading)
    outputs = {}
    for jobs, calls in (("2", ["json", "json"]), ("1", ["json"])):
        loaded.clear()
        done = run_mcpdeps("lint", "--no-cache", "--format", "json", "--jobs", jobs, ".", cwd=tmp_path)
        assert done.returncode in (0, 1), done.stderr
        outputs[jobs] = done.stdout
        assert loaded == calls, f"--jobs {jobs}: while the workers finish, then to write"
    assert outputs["2"] == outputs["1"]
