"""Tests marked `serial` run alone on the machine, the others share it (`pytest -n auto`).

The suite runs on every core (`-n auto` in `pyproject.toml`). A few tests measure
something the other workers would disturb (how long a run takes, a window to kill a
process in, a terminal's timing), so they must not overlap with any other test. One
readers-writer lock, held by each xdist worker around each test, does that in the one
pytest command the README gives:

- every test holds the lock *shared*; a `serial` test holds it *exclusive*, so it starts
  once the tests running on the other workers have finished and they wait for it;
- a gate in front keeps a waiting `serial` test from starving: a worker about to start a
  shared test first passes the gate, which the `serial` test holds while it waits.

The lock files live in the session's temporary root, which the workers of one run share
(and no other run does). Without xdist there is one process and nothing to lock.

A pytest plugin (`pytest_plugins` in `conftest.py`).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

import pytest


def session_root(basetemp: str | None) -> Path | None:
    """The folder every worker of this run shares (xdist gives each worker a `--basetemp`
    inside the controller's), or None when not running under xdist."""
    if not os.environ.get("PYTEST_XDIST_WORKER") or not basetemp:
        return None
    return Path(basetemp).parent


@contextlib.contextmanager
def machine_share(root: Path | None, alone: bool) -> Iterator[None]:
    """Hold the run's lock around one test: exclusive when `alone`, else shared."""
    if root is None:
        yield
        return
    with open(root / "serial.gate", "a") as gate, open(root / "serial.lock", "a") as lock:
        fcntl.flock(gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            if not alone:
                fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
            fcntl.flock(gate, fcntl.LOCK_UN)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: one worker more than there are cores.

    Many tests wait (a server starting, a file watcher, a terminal, a sleep in a racy window)
    while their worker holds no core: with one worker per core, a 2-core run kept ~1.6 cores
    busy. One more worker fills those waits. `PYTEST_XDIST_AUTO_NUM_WORKERS` still decides
    when it is set (xdist reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores + 1


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "serial: runs alone on the machine (it times a run or races a process)"
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    """Each test (its fixtures' setup and teardown included) shares the machine, or has it
    to itself when marked `serial`."""
    root = session_root(item.config.option.basetemp)
    with machine_share(root, alone=item.get_closest_marker("serial") is not None):
        return (yield)
