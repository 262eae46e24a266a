"""Ctrl+C stops every command at once and cleanly: exit 130, no traceback.

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
from pathlib import Path

import pexpect
import pytest
from conftest import REPO, default_sigint

BOOKSHOP = "examples/bookshop/server.py"
WORKERS = "tests/serve_fixtures/workers/server.py"
NARROW = {"COLUMNS": "60", "LINES": "50"}
"""A 60-column terminal as rich sees it (it takes COLUMNS only with LINES beside it)."""
STOP_WITHIN = 10.0
"""Seconds from Ctrl+C to exit; a clean uvicorn shutdown takes about one on this machine."""


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
    """In a terminal narrower than the "watching" line, which stays one line: rich used to wrap it
    (80 columns without LINES, 100 under xdist), so "press Ctrl+C to stop" was cut in two, or not,
    by the checkout's path length, and the wait for it timed out at 60 s."""
    child = spawn(terminal, "serve", BOOKSHOP, "-t", "http", "-p", "0", "--reload", env=NARROW)
    child.expect("press Ctrl\\+C to stop")
    assert child.before.endswith("\n")  # a line of its own: none starts with "; press" (issue 33)
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


def _fill(folder: Path, files: int, per_folder: int = 10) -> Path:
    """`files` empty `.py` files, `per_folder` to a folder, folders nested three deep (a venv's shape)."""
    for n in range(files // per_folder):
        sub = folder / f"a{n // 1000}" / f"b{n // 100}" / f"c{n}"
        sub.mkdir(parents=True)
        for m in range(per_folder):
            os.close(os.open(sub / f"m{m}.py", os.O_CREAT | os.O_WRONLY))
    return folder / "a0" / "b0" / "c0"


def test_reload_does_not_watch_a_huge_cache_or_venv(terminal: list[pexpect.spawn], tmp_path: Path) -> None:
    """30,000 files under `.mcpdeps_cache/` and a venv: started at once, a write there restarts
    nothing, an edit of the server and a package created later do, and Ctrl+C is acted on at once.

    Watched recursively, these were one inotify watch per folder (3,000 here) and every write
    to the cache a restart (tests of `--reload` failed at random in a checkout with a full cache).
    """
    server = tmp_path / "server.py"
    server.write_text((REPO / BOOKSHOP).read_text(encoding="utf-8"), encoding="utf-8")
    cache = _fill(tmp_path / ".mcpdeps_cache", 30_000)
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    venv = _fill(tmp_path / "env" / "lib", 100)
    child = spawn(
        terminal, "serve", "server.py", "-t", "http", "-p", "0", "--reload", "--no-lint", cwd=tmp_path
    )
    child.expect(r"watching \. \(not \.mcpdeps_cache, env\)\r?\npress Ctrl\+C to stop")
    child.expect("Application startup complete", timeout=20)

    for written in (cache / "cached.py", venv / "installed.py"):
        written.write_text("x = 1\n", encoding="utf-8")
    time.sleep(1.0)  # past the debounce: a restart for them would be said before the next one
    server.write_text(server.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    child.expect(r"reloading: (.*) changed", timeout=20)
    assert child.match.group(1) == "server.py"
    child.expect("Application startup complete", timeout=20)

    (tmp_path / "tools").mkdir()  # a folder created after the start is watched too
    time.sleep(1.0)
    (tmp_path / "tools" / "extra.py").write_text("y = 2\n", encoding="utf-8")
    child.expect(r"reloading: (.*) changed", timeout=20)
    assert child.match.group(1) == "extra.py"
    child.expect("Application startup complete", timeout=20)

    output, status, took = interrupt(child)
    assert_clean_stop(output, status, took)
    assert took < 5.0, f"took {took:.1f}s:\n{output}"
    assert output.count("mcpdeps serve: stopped") == 1


@pytest.fixture(scope="module")
def large_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """6,000 generated modules (0.7 s to write): a lint run whose workers have many seconds of
    slices queued when Ctrl+C comes, so a run that waited for them would be seen to (about 12 s
    cold with two jobs). The Ctrl+C itself waits for the phase, not for a clock."""
    import subprocess

    out = tmp_path_factory.mktemp("large") / "proj"
    subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "gen_corpus.py"), str(out), "--modules", "6000"],
        check=True,
        capture_output=True,
    )
    return out


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (state, parent, ...; user and
    system CPU ticks at 11 and 12), or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _children(pid: int) -> list[int]:
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        children: list[int] = []
        for task in tasks:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
                children += map(int, f.read().split())
        return children
    except FileNotFoundError:  # a kernel without CONFIG_PROC_CHILDREN, or a thread gone: by parent
        return [
            int(p) for p in os.listdir("/proc") if p.isdigit() and (_stat(int(p)) or ["", ""])[1] == str(pid)
        ]
    except OSError:
        return []


def _workers(pid: int) -> dict[int, float]:
    """The forked worker processes of `pid` (children running its own command line, which a
    `git` it runs is not), each with the CPU seconds it has used."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            command = f.read()
    except OSError:
        return {}  # ended
    found = {}
    for child in _children(pid):
        try:
            with open(f"/proc/{child}/cmdline", "rb") as f:
                if f.read() != command:
                    continue
        except OSError:
            continue
        fields = _stat(child)
        if fields is not None:
            found[child] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return found


def _running(pid: int) -> bool:
    """Whether `pid` is a process that has not ended (a zombie has)."""
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def _wait_for_workers(child: pexpect.spawn, count: int, cpu: float) -> dict[int, float]:
    """Wait until the run has `count` workers that have each used `cpu` seconds."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = _workers(child.pid)
        if len(workers) >= count and min(workers.values()) >= cpu:
            return workers
        assert child.isalive(), (
            f"the run ended before its workers did that much:\n{child.read_nonblocking(100_000, 0)}"
        )
        time.sleep(0.01)
    raise AssertionError(f"no {count} workers with {cpu} s of CPU each within 60 s: {_workers(child.pid)}")


@pytest.mark.parametrize(
    ("count", "cpu"), [(1, 0.0), (2, 0.05), (2, 0.5)], ids=["forking", "parsing", "in-workers"]
)
def test_lint_stops_at_once_even_with_workers(
    terminal: list[pexpect.spawn], large_project: Path, count: int, cpu: float
) -> None:
    """Ctrl+C as soon as the first worker exists (the pool may still be forking the second),
    once both workers are parsing their first slices, or once each has done half a second of
    work (slices returned, others in flight and queued): exit 130 within 3 s, and the workers
    end with the run.

    The moment is the run's phase, seen in /proc, not a time after the start: a sleep of 1 s
    and 3 s raced the run on a fast or an idle machine and needed it run alone (`serial`).
    A Ctrl+C while the pool forks used to be lost (raised in an at-fork hook, printed as
    ignored, and the run went on to its end): `lint_rules/held_interrupts.py`."""
    child = spawn(terminal, "lint", "--no-cache", "--jobs", "2", ".", cwd=large_project)
    workers = _wait_for_workers(child, count, cpu)
    output, status, took = interrupt(child)
    assert_clean_stop(output, status, took)
    assert took < 3.0, f"{took:.1f}s: the workers' slices were waited for"
    assert not [w for w in workers if _running(w)], "a worker outlived the run"


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
