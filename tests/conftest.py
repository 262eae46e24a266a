"""Shared fixtures: run the real `mcpdeps` command, in this process unless the process is the subject."""

from __future__ import annotations

import gc
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import in_process
import module_weights
import pytest

if TYPE_CHECKING:
    import pexpect  # only the terminal tests load it

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: one worker more than there are cores.

    Some tests wait (a server starting, a file watcher, a terminal) while their worker holds
    no core: one more worker fills those waits. `PYTEST_XDIST_AUTO_NUM_WORKERS` still decides
    when it is set (xdist reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores + 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The heaviest modules first (`tests/module_weights.py`), so `--dist loadfile` starts the
    long ones while there is other work to run beside them."""
    items[:] = module_weights.heaviest_first(items, module_weights.recorded())


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (the items, every imported module, the SDK) lives as long as the
    worker: out of the collector's sight from here, so that each collection during the run
    walks only what the tests made."""
    gc.collect()
    gc.freeze()


def default_sigint() -> None:
    """`preexec_fn` for a child that a test stops with Ctrl+C: SIGINT as a terminal's shell
    starts a command, with its default action.

    A child inherits an ignored SIGINT across exec, and Python then never raises
    KeyboardInterrupt: under `-n auto` a test worker can run with SIGINT ignored (seen in
    full-suite runs only), and the Ctrl+C tests then measured that instead of mcpdeps."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_environment(env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a test's run: this process's, plain (NO_COLOR), 120 columns, and `env`."""
    full_env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120", **(env or {})}
    full_env.pop("FORCE_COLOR", None)
    return full_env


def run_mcpdeps(
    *args: str | os.PathLike[str],
    cwd: str | os.PathLike[str] | None = None,
    input: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
    fresh: bool = False,
    hash_seed: int | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run `mcpdeps ARGS` and capture its text output, its exit code and its files: in this
    process (`tests/in_process.py` says what a run sees and what is put back), or, with
    `fresh=True`, as `python -m mcpdeps ARGS` in a new interpreter, for a test whose subject
    is the process itself (imports at start-up, exit by signal, file descriptors), and
    whenever `env` sets a variable that acts on the interpreter (`_acts_on_the_interpreter`).

    `hash_seed=N`: runs in this process all share its string hash seed, so output that
    followed set order would agree with itself. A test that holds separate runs to the same
    bytes (cold and warm, 1 and 2 workers) gives them different numbers: each number is a
    fresh process under its own `PYTHONHASHSEED`, drawn at random once per session."""
    full_env = test_environment(env)
    arguments = list(map(str, args))
    if hash_seed is not None and "PYTHONHASHSEED" not in full_env:
        full_env["PYTHONHASHSEED"] = _seed(hash_seed)
    if not fresh and not _acts_on_the_interpreter(full_env):
        return in_process.run(arguments, cwd=cwd, input=input, env=full_env, timeout=timeout)
    return subprocess.run(
        [sys.executable, "-m", "mcpdeps", *arguments],
        cwd=cwd,
        input=input,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
    )


def _acts_on_the_interpreter(env: dict[str, str]) -> bool:
    """Whether `env` sets a `PYTHON*` variable as this process does not have it: those act on an
    interpreter as it starts or imports (`PYTHONPROFILEIMPORTTIME`, `PYTHONHASHSEED`,
    `PYTHONWARNINGS`...), so only a new one shows their effect."""
    names = {name for name in (*env, *os.environ) if name.startswith("PYTHON")}
    return any(env.get(name) != os.environ.get(name) for name in names)


_seeds: dict[int, str] = {}


def _seed(number: int) -> str:
    """This session's `PYTHONHASHSEED` number `number`: drawn when first asked, unlike the others."""
    while number not in _seeds:
        value = str(random.SystemRandom().randrange(1, 2**32))  # 0 would turn randomization off
        if value not in _seeds.values():
            _seeds[number] = value
    return _seeds[number]


@pytest.fixture
def terminal() -> Iterator[list[pexpect.spawn]]:
    """Spawned pseudo-terminal sessions (pexpect), closed (and killed if still running) after the test."""
    sessions: list[pexpect.spawn] = []
    yield sessions
    for session in sessions:
        session.close(force=True)


@pytest.fixture
def mcpdeps() -> Callable[..., subprocess.CompletedProcess[str]]:
    return run_mcpdeps


def lint_diagnostics(root: Path, *args: str) -> list[dict]:
    """The diagnostics of `mcpdeps lint --format json --exit-zero ARGS` run in `root`."""
    import json

    proc = run_mcpdeps("lint", "--format", "json", "--exit-zero", *args, cwd=root)
    assert proc.returncode == 0, proc.stderr
    diagnostics: list[dict] = json.loads(proc.stdout)["diagnostics"]
    return diagnostics


def write_files(root: Path, files: dict[str, str]) -> None:
    """Write a test project: each text (dedented) at its path under `root`."""
    import textwrap

    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")


def located(found: list[dict], path: str) -> list[dict]:
    """The diagnostics of `found` located in `path` (as `lint FILE` reports them)."""
    return [d for d in found if d["path"] == path]


def run_mcpdeps_in_colour(
    *args: str | os.PathLike[str], cwd: str | os.PathLike[str] = REPO, columns: int = 120
) -> subprocess.CompletedProcess[str]:
    """`run_mcpdeps` as on a colour terminal (FORCE_COLOR, no NO_COLOR): for tests of styles."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env = {**env, "FORCE_COLOR": "1", "COLUMNS": str(columns)}
    return in_process.run(list(map(str, args)), cwd=cwd, input=None, env=env, timeout=120)


def worker_tasks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[object]]]:
    """The tasks a run sends its forked workers (`parallel.Workers.map`: `scan` for the plan,
    `check` with each slice and the files built beside it), in order; the workers still run them."""
    from mcpdeps.lint_rules import parallel

    sent: list[tuple[str, list[object]]] = []
    real = parallel.Workers.map

    def recorded(
        self: parallel.Workers, task: str, items: list[object], *args: object, **kwargs: object
    ) -> object:
        sent.append((task, list(items)))
        return real(self, task, items, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel.Workers, "map", recorded)
    return sent


def slices_checked_in_workers(sent: list[tuple[str, list[object]]]) -> list[list[str]]:
    """The slices of `worker_tasks` sent to be checked."""
    return [list(item[0]) for task, items in sent if task == "check" for item in items]  # type: ignore[index]
