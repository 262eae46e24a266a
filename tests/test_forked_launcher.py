"""A long-running `mcpdeps serve` / `mcp` forked from a zygote and stood for by its launcher
(`tests/cli_launcher.py`, spawned by `ServeProcess` and the SDK's stdio client) is, to the test
and the client that spawned it, the fresh `python -m mcpdeps` process.

Each case runs the same server both ways, in folders set up alike, under the same environment,
and compares what a test can see: what the server's code finds at import (session, process
group, signal dispositions and mask, flags, streams, open files, environment, folder), what
it answers over its standard streams, how signals sent to the spawned process's group end it
and its children, and its exit code. What differs by design: the server's parent (the zygote)
and its pid (the launcher's is the one spawned); see `tests/forked_cli.py`.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import forked_cli
import pytest
from conftest import EXAMPLES
from mcp import Client
from mcp.client.stdio import get_default_environment
from test_serve_support import INITIALIZE, text_of

pytestmark = pytest.mark.skipif(
    not forked_cli.forkable(dict(os.environ)), reason="forking is off (MCPDEPS_TESTS_FRESH=1)"
)

CLI = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
CLI.pop("FORCE_COLOR", None)
SDK = get_default_environment() | {"NO_COLOR": "1"}
"""What the SDK's stdio client gives a server: a few variables (no `PYTHONUNBUFFERED`, no
`PYTHONDONTWRITEBYTECODE`, which this machine sets for the tests)."""
ENVIRONMENTS = pytest.mark.parametrize("env", [CLI, SDK], ids=["cli-env", "sdk-env"])

PROBE = """import json, os, signal, sys
def _streams():
    return [[s.encoding, s.errors, s.line_buffering, s.write_through, type(s.buffer).__name__]
            for s in (sys.stdin, sys.stdout, sys.stderr)]
with open("/proc/self/status", encoding="ascii") as status:
    umask = next(line.split()[1] for line in status if line.startswith("Umask:"))
state = {
    "session": os.getsid(0) == os.getpid(),
    "group": os.getpgid(0) == os.getpid(),
    "signals": {signal.Signals(n).name: str(signal.getsignal(n)) for n in signal.valid_signals()
                if n in set(signal.Signals) and n not in (signal.SIGKILL, signal.SIGSTOP)},
    "mask": sorted(map(int, signal.pthread_sigmask(signal.SIG_BLOCK, []))),
    "flags": [sys.flags.dont_write_bytecode, sys.dont_write_bytecode, sys.flags.isolated, sys.flags.no_site],
    "streams": _streams(),
    "env": {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"},
    "argv": sys.argv[1:], "orig_argv": sys.orig_argv, "path0": sys.path[0], "cwd": os.getcwd(),
    "umask": umask,
    "fds": sorted(int(fd) for fd in os.listdir("/proc/self/fd")),
    "pid": os.getpid(), "ppid": os.getppid(),
}
print("PROBE " + json.dumps(state), file=sys.stderr, flush=True)
"""

GRANDCHILD = """import subprocess, sys
CODE = '''import os, signal, sys, time
def told(number, frame):
    os.write(2, f"grandchild got {signal.Signals(number).name}\\\\n".encode())
    sys.exit(0)
for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(number, told)
os.write(2, f"GRANDCHILD {os.getpid()}\\\\n".encode())
time.sleep(300)
'''
grandchild = subprocess.Popen([sys.executable, "-S", "-c", CODE])
"""
"""A server that starts a child of its own in its process group (as uvicorn's workers and
`--reload`'s child are), which says which signal ended it."""

TOOL = "from mcp.server import MCPServer\nmcp = MCPServer('probe')\n\n@mcp.tool()\ndef ping() -> str:\n    return 'pong'\n"


def _server(folder: Path, *code: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "server.py").write_text("\n".join((*code, TOOL)), encoding="utf-8")
    return folder


def _command(args: list[str], folder: Path, env: dict[str, str], fresh: bool) -> list[str]:
    if fresh:
        return [sys.executable, "-m", "mcpdeps", *args]
    launched = forked_cli.launch(args, cwd=folder, env=env)
    assert launched is not None
    return launched


@contextlib.contextmanager
def _spawned(
    args: list[str], folder: Path, env: dict[str, str], fresh: bool, **popen: object
) -> Iterator[subprocess.Popen[bytes]]:
    """The server as `ServeProcess` spawns it (its own session), its whole group killed at the end."""
    proc = subprocess.Popen(
        _command(args, folder, env, fresh), cwd=folder, env=env, start_new_session=True, **popen
    )  # type: ignore[call-overload]
    try:
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _wait_for(path: Path, text: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = path.read_text(encoding="utf-8", errors="replace")
        if text in found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{text!r} not in {path} within {timeout} s:\n{found}")


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie has ended: it only waits for its parent to read its status)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rpartition(")")[2].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _normalized(text: str, folder: Path) -> str:
    """Output with the run's folder and the pids it prints (uvicorn's `[12345]`) made alike."""
    text = re.sub(r"127\.0\.0\.1:\d+", "<address>", text.replace(str(folder), "<D>"))
    return re.sub(r"\[\d+\]|GRANDCHILD \d+", "<pid>", text)


def _probe(stderr: str) -> dict[str, object]:
    return json.loads(next(line for line in stderr.splitlines() if line.startswith("PROBE "))[6:])


def _jsonrpc(*messages: dict[str, object]) -> bytes:
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
TOOLS = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
CALL = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "ping", "arguments": {}}}


def _spawner_state() -> None:
    """What the spawner may hand down, which the zygote did not have when it started: SIGINT
    and SIGHUP ignored (as `nohup`, or a test worker under xdist), SIGUSR1 blocked, a umask."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
    os.umask(0o027)


@ENVIRONMENTS
def test_a_stdio_server_starts_as_a_fresh_one_and_answers_on_the_spawned_processs_pipes(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """What its code finds at import (`PROBE`: the spawner's signal dispositions and mask, not
    the zygote's; a session of its own; the environment's flags and streams, where the SDK's
    gives no `PYTHONUNBUFFERED`); then JSON-RPC over the pipes the spawner holds, stderr, the
    exit code once stdin ends, and the end of stdout when the server ends (the launcher holds
    no copy)."""
    outcomes = []
    for fresh in (True, False):
        folder = _server(tmp_path / str(fresh), PROBE)
        pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
        with _spawned(["serve", "server.py"], folder, env, fresh, preexec_fn=_spawner_state, **pipes) as proc:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(_jsonrpc(INITIALIZE, INITIALIZED, TOOLS, CALL))
            proc.stdin.flush()
            answers = [proc.stdout.readline() for _ in range(3)]  # before stdin ends (see the report)
            out, err = proc.communicate(timeout=60)
        probe = _probe(err.decode())
        spawned = (probe.pop("pid") == proc.pid, probe.pop("ppid") == os.getpid())
        assert spawned == (fresh, fresh)  # a launched run's pid and parent differ by design: not compared
        probe = json.loads(json.dumps(probe).replace(str(folder), "<D>"))
        rest = [
            line for line in _normalized(err.decode(), folder).splitlines() if not line.startswith("PROBE ")
        ]
        outcomes.append((probe, proc.returncode, answers, out, rest))
    assert outcomes[1] == outcomes[0]
    probe, code, answers, _, _ = outcomes[0]
    assert probe["session"] and probe["signals"]["SIGINT"] == str(signal.SIG_IGN)  # type: ignore[index]
    assert code == 0 and b'"pong"' in answers[2]


HTTP = ["serve", "server.py", "-t", "http", "-p", "0"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_signal_to_the_spawned_group_ends_the_server_and_its_children_as_a_fresh_runs(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """`killpg` on the spawned process, as `ServeProcess.stop` and the SDK's stdio client end a
    server: the server's exit code and last words, and its child told by the same signal."""
    outcomes = []
    for fresh in (True, False):
        folder = _server(tmp_path / str(fresh), GRANDCHILD)
        log = folder.parent / f"{fresh}.log"
        with (
            open(log, "wb") as err,
            _spawned(HTTP, folder, CLI, fresh, stdin=subprocess.DEVNULL, stderr=err) as proc,
        ):
            _wait_for(log, "Application startup complete")
            os.killpg(proc.pid, sig)
            code = proc.wait(timeout=30)
            _wait_for(log, "grandchild got", timeout=10)
        lines = sorted(_normalized(log.read_text(encoding="utf-8"), folder).splitlines())
        outcomes.append((code, lines))  # sorted: the server and its child write at the same time
    assert outcomes[1] == outcomes[0]
    assert f"grandchild got {sig.name}" in outcomes[0][1]


@contextlib.contextmanager
def _launched_with_a_child(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int, int, Path]]:
    """A launched HTTP server whose code started a child (`GRANDCHILD`): the launcher, the
    server's pid, its child's, and the server's stderr."""
    folder = _server(tmp_path / "p", GRANDCHILD)
    log = tmp_path / "serve.log"
    with (
        open(log, "wb") as err,
        _spawned(HTTP, folder, CLI, False, stdin=subprocess.DEVNULL, stderr=err) as proc,
    ):
        found = _wait_for(log, "GRANDCHILD ")
        grandchild = int(found.split("GRANDCHILD ")[1].split()[0])
        yield proc, _parent(grandchild), grandchild, log


def _gone(*pids: int, timeout: float = 10) -> list[int]:
    """Those of `pids` still running after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while any(map(_alive, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if _alive(pid)]


@pytest.mark.parametrize("how", ["process", "group"])
def test_a_launcher_killed_by_sigkill_takes_the_server_and_its_children_with_it(
    tmp_path: Path, how: str
) -> None:
    """SIGKILL cannot be passed on: the zygote sees the launcher's connection end and kills the
    server's process group, as the launcher's group would have been killed with a fresh one."""
    with _launched_with_a_child(tmp_path) as (proc, server, grandchild, _):
        assert _parent(server) == _zygote_of(proc) and _alive(grandchild)
        (os.kill if how == "process" else os.killpg)(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=10) == -signal.SIGKILL
        assert _gone(server, grandchild) == [], "the server or its child outlived the launcher"


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return int(stat.read().rpartition(")")[2].split()[1])
    except (OSError, ValueError):
        return 0


def _zygote_of(launcher: subprocess.Popen[bytes]) -> int:
    """The pid of the zygote whose socket the launcher was given."""
    socket_path = launcher.args[4]  # type: ignore[index]
    return next(z.process.pid for z in forked_cli._zygotes.values() if z.socket == socket_path)


@pytest.mark.parametrize(
    "args", [["serve", "missing.py"], ["serve", "server.py", "-t", "carrier-pigeon"], ["mcp", "--help"]]
)
def test_a_launched_run_exits_with_the_fresh_runs_code_and_output(tmp_path: Path, args: list[str]) -> None:
    outcomes = []
    for fresh in (True, False):
        folder = _server(tmp_path / str(fresh))
        pipes = {"stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
        with _spawned(args, folder, CLI, fresh, **pipes) as proc:
            out, err = proc.communicate(timeout=60)
        outcomes.append((proc.returncode, out.decode(), _normalized(err.decode(), folder)))
    assert outcomes[1] == outcomes[0]


def test_a_launcher_spawned_under_another_environment_becomes_the_fresh_run(tmp_path: Path) -> None:
    """The zygote runs only an environment that is its own: a variable set since the command
    line was chosen (a test's `monkeypatch.setenv`) makes the launcher `exec` the fresh run."""
    folder = _server(tmp_path / "p", PROBE)
    command = _command(["serve", "server.py"], folder, CLI, fresh=False)
    env = {**CLI, "MCPDEPS_TEST_LATE": "1"}
    done = subprocess.run(
        command, cwd=folder, env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 0, done.stderr
    probe = _probe(done.stderr)
    assert probe["env"]["MCPDEPS_TEST_LATE"] == "1"  # type: ignore[index]
    assert (probe["ppid"], probe["flags"][2:]) == (os.getpid(), [0, 0])  # type: ignore[index]  (not `-I -S`)


def test_what_a_run_would_not_fork_is_spawned_fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`forked_cli`'s rules hold for launched runs: a module of a name the zygote imported in
    the folder, a variable acting as the interpreter starts, `MCPDEPS_TESTS_FRESH=1`."""
    fresh = [sys.executable, "-m", "mcpdeps", "serve", "server.py"]
    folder = _server(tmp_path / "p")
    for _ in range(2):  # the second of an environment is the one forked
        launched = forked_cli.launcher_command(["serve", "server.py"], cwd=folder, env=CLI)
    assert launched != fresh
    (folder / "anyio.py").write_text("", encoding="utf-8")
    assert forked_cli.launcher_command(["serve", "server.py"], cwd=folder, env=CLI) == fresh
    assert forked_cli.launch(["serve", "server.py"], cwd=folder, env=CLI) is None
    (folder / "anyio.py").unlink()
    for _ in range(2):
        assert (
            forked_cli.launcher_command(["serve", "server.py"], cwd=folder, env={**CLI, "PYTHONDEVMODE": "1"})
            == fresh
        )
    monkeypatch.setenv("MCPDEPS_TESTS_FRESH", "1")
    assert forked_cli.launcher_command(["serve", "server.py"], cwd=folder, env=CLI) == fresh


def test_a_stopped_zygote_ends_after_its_launched_runs(tmp_path: Path) -> None:
    """A zygote stopped (the least recently used of a worker's, or at exit) while a launched
    server runs serves that server's launcher to its end: its status, not a lost connection."""
    folder = _server(tmp_path / "p")
    log = tmp_path / "serve.log"
    with (
        open(log, "wb") as err,
        _spawned(HTTP, folder, CLI, False, stdin=subprocess.DEVNULL, stderr=err) as proc,
    ):
        _wait_for(log, "Application startup complete")
        key, zygote = next((k, z) for k, z in forked_cli._zygotes.items() if z.socket == proc.args[4])  # type: ignore[index]
        with forked_cli._lock:
            forked_cli._stop(forked_cli._zygotes.pop(key))
        assert zygote.process.poll() is None, "the zygote waits for its run"
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=30) == 130, log.read_text(encoding="utf-8")
    zygote.process.wait(timeout=10)
    assert "mcpdeps serve: stopped" in log.read_text(encoding="utf-8")


def test_the_sdks_stdio_client_gets_the_answers_of_a_fresh_server(tmp_path: Path) -> None:
    """The bookshop over the SDK's own stdio client (its spawn, pipes and shutdown), both ways."""
    from mcp.client.stdio import StdioServerParameters

    results = []
    for fresh in (True, False):
        folder = tmp_path / str(fresh)
        shutil.copytree(EXAMPLES / "bookshop", folder, ignore=shutil.ignore_patterns("__pycache__"))
        spawned = _command(["serve", "server.py"], folder, SDK, fresh)
        params = StdioServerParameters(
            command=spawned[0], args=spawned[1:], cwd=folder, env={"NO_COLOR": "1"}
        )

        async def reserve(params: StdioServerParameters = params) -> tuple[list[str], str]:
            with anyio.fail_after(60):
                async with Client(params) as client:
                    tools = [t.name for t in (await client.list_tools()).tools]
                    return tools, text_of(await client.call_tool("reserve_book", {"title": "Dune"}))

        results.append(anyio.run(reserve))
    assert results[1] == results[0]
    assert results[0][1] == "Reserved 'Dune' (6 copies left)."


def test_a_zygote_that_dies_under_a_launched_server_takes_the_server_with_it(tmp_path: Path) -> None:
    """Nothing could report the server's end: its launcher kills its group and exits 1, rather
    than leave a server nobody will stop (and the tests' run still says it failed)."""
    with _launched_with_a_child(tmp_path) as (proc, server, grandchild, log):
        key, zygote = next((k, z) for k, z in forked_cli._zygotes.items() if z.socket == proc.args[4])  # type: ignore[index]
        with forked_cli._lock:
            del forked_cli._zygotes[key]
        zygote.process.kill()
        zygote.process.wait()
        assert proc.wait(timeout=10) == 1
        assert _gone(server, grandchild) == [], "the server or its child outlived its zygote"
    assert "the mcpdeps zygote ended while the run was in progress" in log.read_text(encoding="utf-8")
