"""Shared fixtures: run the real `mcpdeps` command in a subprocess."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import forked_cli
import pytest

# `serial` tests run alone (the suite runs with `-n auto`); `xdist_group` modules on one worker.
pytest_plugins = ["bytecode", "machine_share", "worker_groups"]

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (the items, every imported module, the SDK) lives as long as the
    worker: out of the collector's sight from here, so that each full collection during the
    run walks only what the tests made. The collector took 10% of the in-process modules' CPU
    (`test_incremental`, `test_fix_spans`...), 6% with this."""
    gc.collect()
    gc.freeze()


def default_sigint() -> None:
    """`preexec_fn` for a child that a test stops with Ctrl+C: SIGINT as a terminal's shell
    starts a command, with its default action.

    A child inherits an ignored SIGINT across exec, and Python then never raises
    KeyboardInterrupt: under `-n auto` a test worker can run with SIGINT ignored (seen in
    full-suite runs only), and the Ctrl+C tests then measured that instead of mcpdeps."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_mcpdeps(
    *args: str | os.PathLike[str],
    cwd: str | os.PathLike[str] | None = None,
    input: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
    fresh: bool = False,
    hash_seed: int | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run `python -m mcpdeps ARGS` (the same code as the `mcpdeps` script) and capture text output:
    forked from a started process where that prints the same (`tests/forked_cli.py`).

    `fresh=True`: always a new interpreter, for a test whose subject is the process itself.
    `hash_seed=N`: forked runs share their zygote's string hash seed, so a test that holds
    separate runs to the same bytes (cold and warm, 1 and 2 workers) only sees an order that
    follows the seed when the runs it compares hash differently: give them different numbers
    (runs with the same number share this session's seed of that number)."""
    full_env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120", **(env or {})}
    full_env.pop("FORCE_COLOR", None)
    forked = None
    if not fresh:
        forked = forked_cli.run(
            list(map(str, args)), cwd=cwd, input=input, env=full_env, timeout=timeout, hash_seed=hash_seed
        )
    if forked is not None:
        return forked
    return subprocess.run(
        [sys.executable, "-m", "mcpdeps", *map(str, args)],
        cwd=cwd,
        input=input,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
    )


@pytest.fixture
def mcpdeps() -> Callable[..., subprocess.CompletedProcess[str]]:
    return run_mcpdeps


def run_mcpdeps_in_colour(
    *args: str | os.PathLike[str], cwd: str | os.PathLike[str] = REPO, columns: int = 120
) -> subprocess.CompletedProcess[str]:
    """`run_mcpdeps` as on a colour terminal (FORCE_COLOR, no NO_COLOR): for tests of styles."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env = {**env, "FORCE_COLOR": "1", "COLUMNS": str(columns)}
    forked = forked_cli.run(list(map(str, args)), cwd=cwd, input=None, env=env, timeout=120)
    if forked is not None:
        return forked
    return subprocess.run(
        [sys.executable, "-m", "mcpdeps", *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
