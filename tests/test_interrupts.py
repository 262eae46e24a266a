"""Ctrl+C stops every command at once and cleanly (issue 17, item 1): exit 130, no traceback.

Each command runs in a real pseudo-terminal (pexpect), so Ctrl+C is what a user's terminal
sends: SIGINT to the whole foreground process group (workers and children included).
`serve` over stdio in a terminal is the case that used to hang: the SDK reads stdin in a
thread that a cancellation cannot reach.
"""

from __future__ import annotations

import os
import secrets
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from conftest import REPO, default_sigint

BOOKSHOP = "examples/bookshop/server.py"
WORKERS = "tests/serve_fixtures/workers/server.py"
STOP_WITHIN = 10.0
"""Seconds from Ctrl+C to exit; a clean uvicorn shutdown takes about one on this machine."""


@pytest.fixture
def terminal() -> Iterator[list[pexpect.spawn]]:
    sessions: list[pexpect.spawn] = []
    yield sessions
    for session in sessions:
        session.close(force=True)


def spawn(
    sessions: list[pexpect.spawn], *args: str, cwd: Path = REPO, env: dict[str, str] | None = None
) -> pexpect.spawn:
    full_env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "100", **(env or {})}
    full_env.pop("FORCE_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "mcpdeps", *args],
        cwd=str(cwd),
        env=full_env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 100),
        preexec_fn=default_sigint,
    )
    sessions.append(child)
    return child


def interrupt(child: pexpect.spawn) -> tuple[str, int, float]:
    """Ctrl+C once; what was printed afterwards, the exit status and how long it took."""
    start = time.monotonic()
    child.sendintr()
    child.expect(pexpect.EOF, timeout=STOP_WITHIN + 20)
    took = time.monotonic() - start
    child.close()
    return child.before, child.exitstatus, took


def assert_clean_stop(output: str, status: int, took: float) -> None:
    assert status == 130, output
    assert "Traceback" not in output and "Error" not in output, output
    assert took < STOP_WITHIN, f"took {took:.1f}s:\n{output}"


def test_serve_stdio_in_a_terminal_stops_on_one_ctrl_c(terminal: list[pexpect.spawn]) -> None:
    child = spawn(terminal, "serve", BOOKSHOP)
    child.expect(r"stop\s+Ctrl\+C \(or Ctrl\+D: end of input\)")  # the banner says how
    child.expect("Waiting for an MCP client on stdin")
    child.expect(r"╯")
    time.sleep(0.5)  # the SDK's reader is now blocked on the terminal
    output, status, took = interrupt(child)
    assert_clean_stop(output, status, took)
    assert "mcpdeps serve: stopped" in output


def test_serve_stdio_still_ends_on_ctrl_d(terminal: list[pexpect.spawn]) -> None:
    child = spawn(terminal, "serve", BOOKSHOP)
    child.expect(r"╯")
    time.sleep(0.5)
    child.sendeof()
    child.expect(pexpect.EOF, timeout=20)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.before


def test_serve_http_stops_on_ctrl_c(terminal: list[pexpect.spawn]) -> None:
    child = spawn(terminal, "serve", BOOKSHOP, "-t", "http", "-p", "0")
    child.expect(r"stop\s+Ctrl\+C")
    child.expect("Application startup complete")
    output, status, took = interrupt(child)
    assert_clean_stop(output, status, took)
    assert "mcpdeps serve: stopped" in output


def test_serve_workers_stop_on_ctrl_c(terminal: list[pexpect.spawn]) -> None:
    env = {"MCP_STATE_KEY": secrets.token_hex(32)}
    child = spawn(terminal, "serve", WORKERS, "-t", "http", "-p", "0", "-w", "2", env=env)
    for _ in range(2):
        child.expect("Application startup complete")  # each worker
    output, status, took = interrupt(child)
    assert_clean_stop(output, status, took)
    assert output.count("mcpdeps serve: stopped") == 1


def test_serve_reload_stops_on_ctrl_c_and_says_stopped_once(terminal: list[pexpect.spawn]) -> None:
    child = spawn(terminal, "serve", BOOKSHOP, "-t", "http", "-p", "0", "--reload")
    child.expect("press Ctrl\\+C to stop")
    child.expect("Application startup complete")
    output, status, took = interrupt(child)
    assert_clean_stop(output, status, took)
    assert output.count("mcpdeps serve: stopped") == 1


def test_reload_restart_does_not_say_stopped(terminal: list[pexpect.spawn], tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text((REPO / BOOKSHOP).read_text(encoding="utf-8"), encoding="utf-8")
    child = spawn(terminal, "serve", "server.py", "-t", "http", "-p", "0", "--reload", cwd=tmp_path)
    child.expect("Application startup complete")
    server.write_text(server.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    child.expect("reloading: server.py changed")
    child.expect("Application startup complete")
    restart = child.before
    assert "stopped" not in restart, restart
    output, status, took = interrupt(child)
    assert_clean_stop(output, status, took)


@pytest.fixture(scope="module")
def large_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1,500 generated modules: a lint run that takes seconds and uses worker processes."""
    import subprocess

    out = tmp_path_factory.mktemp("large") / "proj"
    subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "gen_corpus.py"), str(out), "--modules", "1500"],
        check=True,
        capture_output=True,
    )
    return out


@pytest.mark.serial  # it times how fast the run ends
@pytest.mark.parametrize("after", [1.0, 3.0], ids=["parsing", "in-workers"])
def test_lint_stops_at_once_even_with_workers(
    terminal: list[pexpect.spawn], large_project: Path, after: float
) -> None:
    child = spawn(terminal, "lint", "--no-cache", "--jobs", "2", ".", cwd=large_project)
    time.sleep(after)
    output, status, took = interrupt(child)
    if status == 1 and "Found" in output:
        pytest.skip("the run finished before Ctrl+C (a fast machine)")
    assert_clean_stop(output, status, took)
    assert took < 3.0, f"{took:.1f}s: the workers' slices were waited for"


def test_serve_stdio_through_the_runner_stops_on_ctrl_c(terminal: list[pexpect.spawn]) -> None:
    """`--python` runs the server in the runner (another process, its own session): same stop."""
    child = spawn(terminal, "serve", "--python", sys.executable, BOOKSHOP)
    child.expect(r"stop\s+Ctrl\+C")
    child.expect(r"╯")
    time.sleep(0.5)
    output, status, took = interrupt(child)
    assert_clean_stop(output, status, took)


def test_call_stops_on_ctrl_c_at_a_question_over_stdio(terminal: list[pexpect.spawn]) -> None:
    child = spawn(terminal, "call", "--stdio", BOOKSHOP, "order_book", "--arg", "title=Neuromancer")
    child.expect(r"Confirm \(y/n\): ")
    output, status, took = interrupt(child)
    assert_clean_stop(output, status, took)
