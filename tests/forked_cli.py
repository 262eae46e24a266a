"""`python -m mcpdeps ARGS` for the tests, forked from a process that has already started.

Why: the suite runs `mcpdeps` in a subprocess some thousands of times, and most of each
run is the interpreter starting and importing typer, rich, click and the command line
(0.1 s of CPU for `lint`, 0.3 s for the other commands, against a few milliseconds of
work on a test's small project). On two cores that start-up was a third of the suite.

How: `tests/cli_zygote.py` is started once per test worker, command family and
environment, imports the command line, and forks a child per run; the child takes the
run's standard streams and folder and runs `mcpdeps.__main__` as `-m` does. What a test
sees is a `subprocess.CompletedProcess` built as `subprocess.run(..., capture_output=True,
text=True)` builds it: the same decoding, newline translation, input encoding, timeout
(`TimeoutExpired` after a SIGKILL) and return code (negative for a signal).

When not: a run is forked only where that cannot change what it prints.
- The environment must be the zygote's own, byte for byte, but for `PYTEST_CURRENT_TEST`
  (the child is given the run's own): typer and rich read some variables when imported. So each environment gets its own zygote, and only from its
  second run on (a variable set to a test's temporary folder would otherwise start a
  zygote for a single run).
- No `PYTHON*` variable may differ from this process's: those act on the interpreter as
  it starts. Those that act while it imports or after `__main__` (`STARTING`:
  `PYTHONPROFILEIMPORTTIME`, which tests read to see what a run imports, warnings...) are
  never forked at all, nor a relative `PYTHONPATH` entry (made absolute at start).
- Not in a folder holding a module of a name the zygote has imported (`json.py`, `typer.py`,
  `mcpdeps/`, the SDK's `anyio.py`): `-m` puts the run's folder first on `sys.path`, so a
  fresh run imports that; nor a distribution with a pydantic plugin, which pydantic looks up
  there when the SDK's first model is built (in the zygote, before the run).
- Not with `MCPDEPS_EXIT_WITH_PARENT`: a forked run's parent is the zygote, not this process.
- Not when this process has no standard input to lend.
- `MCPDEPS_TESTS_FRESH=1` turns forking off for a whole run of the suite, and
  `run_mcpdeps(fresh=True)` for one run.
What a fresh run inherits from this process at the time of the run, the child takes from
the request: the folder, the umask and the resource limits. The tests whose subject is the
process itself (imports, start-up, signals, terminals) spawn it themselves or ask for a fresh
run; `tests/test_forked_cli.py` holds the forked runs to fresh ones, byte for byte.

Hash seeds: every child of one zygote shares its string hash seed, where fresh processes
each draw one. Output that depended on set order would then be stable within a worker, so
the tests that hold separate runs to the same bytes give them different `hash_seed` numbers:
such a run is forked from a zygote started with `PYTHONHASHSEED` set to this process's seed
of that number (drawn at random when first asked, `_seed`), and its child's environment is
the run's own, without it. A run whose environment sets `PYTHONHASHSEED` itself runs fresh,
under that seed. The suite's runs of 4 workers, the pexpect and pre-commit tests and the
property tests' own subprocesses still draw fresh seeds.

What it cannot give: the parent (`os.getppid()` is the
zygote's pid) and the signal dispositions and mask, which are the zygote's from its start
(no run through `run_mcpdeps` gets a signal but its timeout's SIGKILL); nor the collector's
view until a teardown: what the zygote held is frozen (`gc.get_freeze_count()`, and cycles of
it are not collected during the run).

Long-running servers (`serve`, `mcp`, which `ServeProcess` and the SDK's stdio client spawn
and end with signals): `launcher_command` gives, under the same rules, the command line of
`tests/cli_launcher.py` in place of `python -m mcpdeps ...`. The launcher is the process
spawned; the zygote's child takes its streams, folder, environment, umask, limits, signal
dispositions and mask, starts a session of its own, and is signalled, ended and killed with
it (`tests/cli_launcher.py` says how; `tests/test_forked_launcher.py` proves it). Where the
environment the launcher is spawned under is not its zygote's, the launcher becomes the fresh
run. Such a run's parent is the zygote and its pid is not the one spawned: a test that signals
that pid alone, or looks for its children, starts the server fresh.
"""

from __future__ import annotations

import atexit
import importlib.machinery
import json
import os
import random
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import count
from pathlib import Path

import cli_launcher

ZYGOTE = Path(__file__).with_name("cli_zygote.py")
STATIC = ("lint", "graph", "rule", "lsp")
SUFFIXES = tuple(importlib.machinery.all_suffixes())
PER_RUN = frozenset({"PYTEST_CURRENT_TEST"})
"""Set anew for each test by pytest, and read by no import: the child gets the run's own
value, and zygotes are not told apart by it (else each test would start its own)."""
MAX_ZYGOTES = 8
"""Per test worker; the least recently used is stopped beyond this."""
HASH_SEED = "PYTHONHASHSEED"


@dataclass
class _Zygote:
    process: subprocess.Popen[bytes]
    socket: str
    modules: frozenset[str]
    """Top-level modules it imported that a run's folder could hold instead (`_shadowed`)."""
    busy: int = 0
    """Runs in progress (a zygote is stopped only when it has none)."""


_Key = tuple[str, frozenset[tuple[str, str]], str | None]
"""A zygote's command family, environment (`_key`) and `PYTHONHASHSEED` (None: drawn at start)."""
_zygotes: dict[_Key, _Zygote] = {}
_seen: dict[frozenset[tuple[str, str]], int] = {}
_seeds: dict[int, str] = {}
_folder: str | None = None
_names = count()
_lock = threading.Lock()
"""Held while choosing, starting or releasing a zygote: tests run `mcpdeps` from threads too."""


USER_CODE = ("serve", "call", "mcp")


def family(args: Sequence[str]) -> str:
    """The words `cli/main.py` acts on when imported, reduced to one per distinct setup, and
    apart where the runs import different things anyway (`cli_zygote.PRELOAD`): the runs of
    the user's code (`serve`, `call`, `mcp`, `graph --live`) import the SDK, but not to print
    their help (a zygote that imports it only for that costs a second of CPU per width)."""
    first = args[0] if args else ""
    if first in USER_CODE and _asks_for_help(args):
        return "app"
    if first in USER_CODE:
        return first
    if first == "graph" and "--live" in args:
        return "live"
    if first not in STATIC or "--live" in args:
        return "new" if first == "new" else "app"  # no import-time setup at all
    return {"lint": "lint", "lsp": "lsp"}.get(first, "graph")


def _asks_for_help(args: Sequence[str]) -> bool:
    """`--help` among the options: click prints the help and the run imports nothing more."""
    return "--help" in (args[: args.index("--")] if "--" in args else args)


STARTING = (
    "PYTHONPROFILEIMPORTTIME",
    "PYTHONVERBOSE",
    "PYTHONINSPECT",
    "PYTHONDEVMODE",
    "PYTHONWARNINGS",
    "PYTHONWARNDEFAULTENCODING",
    "PYTHONTRACEMALLOC",
)
"""Variables whose effect is on what the interpreter does while it imports, or after `__main__`:
a zygote has done its imports under them, and its child would not print what a fresh run
prints (import times, warnings) nor wait at a prompt (`PYTHONINSPECT`)."""

AT_START = ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")
"""Variables the interpreter reads only as it starts, into `sys.flags` and its standard
streams: a zygote started under the run's environment has them as the fresh run would, and
builds its child's streams as its own (`cli_zygote._stream`). So a run may set or unset them
(the SDK's stdio client passes neither: its servers get a handful of variables)."""

EXIT_WITH_PARENT = "MCPDEPS_EXIT_WITH_PARENT"
"""`serve` stops at once unless its parent has this pid (`cli/serve/parent_watch.py`)."""


def forkable(env: Mapping[str, str]) -> bool:
    if os.environ.get("MCPDEPS_TESTS_FRESH") == "1" or not hasattr(os, "pidfd_open"):
        return False
    if any(env.get(name) for name in STARTING):
        return False  # even when this process has it too (a test's `monkeypatch.setenv`)
    if env.get(EXIT_WITH_PARENT):
        return False  # names this process as the run's parent: a forked run's is the zygote
    if any(not os.path.isabs(entry) for entry in env.get("PYTHONPATH", "").split(os.pathsep) if entry):
        return False  # made absolute against the folder the interpreter starts in: the zygote's
    names = {name for name in (*env, *os.environ) if name.startswith("PYTHON")} - set(AT_START)
    return all(env.get(name) == os.environ.get(name) for name in names)


DISTRIBUTIONS = (".dist-info", ".egg-info")


def _shadowed(folder: str, modules: frozenset[str]) -> bool:
    """Whether `folder`, first on a fresh run's `sys.path` (`-m`), holds one of `modules`: a
    `json.py`, `typer.py`, `anyio.py` or `mcpdeps/` there is what a fresh run imports, not the
    zygote's. Or, where the zygote imported pydantic, a distribution: pydantic looks its
    plugins up on `sys.path` when its first model is built (the SDK's, at import)."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return True
    if "pydantic" in modules and any(
        _has_pydantic_plugin(folder, e) for e in entries if e.endswith(DISTRIBUTIONS)
    ):
        return True
    for entry in entries:
        name, dot, _ = entry.partition(".")
        if name not in modules:
            continue
        if dot and any(entry == name + suffix for suffix in SUFFIXES):
            return True
        if not dot and any(os.path.exists(os.path.join(folder, entry, "__init__" + s)) for s in SUFFIXES):
            return True  # a package (a bare folder is a namespace portion: found after the real one)
    return False


def _has_pydantic_plugin(folder: str, distribution: str) -> bool:
    """Whether the distribution's metadata names a `pydantic` entry point (what pydantic loads)."""
    try:
        with open(os.path.join(folder, distribution, "entry_points.txt"), encoding="utf-8") as points:
            return any(line.strip().replace(" ", "") == "[pydantic]" for line in points)
    except OSError:
        return False
    except UnicodeDecodeError:
        return True  # unreadable here: let a fresh run read it


def _lends_stdin() -> bool:
    """Whether this process's standard input can be passed on (a fresh run finds it closed too)."""
    try:
        os.fstat(0)
    except OSError:
        return False
    return True


LAUNCHER = Path(__file__).with_name("cli_launcher.py")


def launcher_command(
    args: Sequence[str], *, cwd: str | os.PathLike[str] | None, env: Mapping[str, str]
) -> list[str]:
    """The command line to spawn for a long-running `python -m mcpdeps ARGS` (`serve`, `mcp`)
    in `cwd` under exactly `env`: where `run` would fork it, `tests/cli_launcher.py`, which
    stands for the run the zygote forks for it (`launch`); else the fresh command line."""
    if forkable(env) and _seen_before(env):
        launched = launch(args, cwd=cwd, env=env)
        if launched is not None:
            return launched
    return [sys.executable, "-m", "mcpdeps", *map(str, args)]


def launch(
    args: Sequence[str], *, cwd: str | os.PathLike[str] | None, env: Mapping[str, str]
) -> list[str] | None:
    """The launcher's command line for `python -m mcpdeps ARGS` in `cwd` under `env`, its zygote
    started if need be (it ends with its last run, `_stop`); None where the run's folder holds
    a module the zygote has imported, or where `subprocess` would refuse the command."""
    args = list(map(str, args))
    folder = os.path.abspath(cwd or os.getcwd())
    with _lock:
        zygote = _zygote_for(args, folder, dict(env), None)
    if zygote is None:
        return None
    return [sys.executable, "-I", "-S", str(LAUNCHER), zygote.socket, *args]


def run(
    args: Sequence[str],
    *,
    cwd: str | os.PathLike[str] | None,
    input: str | None,
    env: dict[str, str],
    timeout: float | None,
    hash_seed: int | None = None,
) -> subprocess.CompletedProcess[str] | None:
    """The run forked from a zygote, or None where only a fresh process is the same.

    `hash_seed=N`: from a zygote whose string hash seed is this process's seed number N, so that
    runs given different numbers hash strings differently (from each other and from the runs
    without a number) as fresh runs do."""
    if not forkable(env) or (input is None and not _lends_stdin()):
        return None
    if hash_seed is not None and env.get(HASH_SEED):
        return None  # the environment fixes the seed: a fresh run has that one
    if not _seen_before(env):
        return None
    return run_forked(args, cwd=cwd, input=input, env=env, timeout=timeout, hash_seed=hash_seed)


def run_forked(
    args: Sequence[str],
    *,
    cwd: str | os.PathLike[str] | None,
    input: str | None,
    env: dict[str, str],
    timeout: float | None,
    hash_seed: int | None = None,
) -> subprocess.CompletedProcess[str] | None:
    """The run forked from the zygote of its family, environment and hash seed (None: all are
    busy, or the run's folder holds a module of its own under a name the zygote has imported)."""
    folder = os.path.abspath(cwd or os.getcwd())  # a relative one is this process's, not the zygote's
    with _lock:
        zygote = _zygote_for(args, folder, env, None if hash_seed is None else _seed(hash_seed))
        if zygote is None:
            return None
        zygote.busy += 1
    try:
        command = [sys.executable, "-m", "mcpdeps", *args]
        return _ask(zygote.socket, command, list(args), folder, env, input, timeout)
    finally:
        with _lock:
            zygote.busy -= 1


def _seen_before(env: Mapping[str, str]) -> bool:
    """Counts a run of this environment: whether it is its second or later (the first runs
    fresh, so that a variable set to a test's own folder starts no zygote for one run)."""
    key = _key(env)
    with _lock:
        _seen[key] = _seen.get(key, 0) + 1
        return _seen[key] >= 2


def _zygote_for(args: Sequence[str], folder: str, env: dict[str, str], seed: str | None) -> _Zygote | None:
    """The zygote to fork `args` in `folder` from (`_lock` held); None where a fresh run differs:
    what `subprocess` refuses (a NUL byte, ValueError there), or a folder holding a module of
    its own under a name the zygote has imported."""
    if any("\0" in arg for arg in (*args, folder)):
        return None
    zygote = _zygote((family(args), _key(env), seed), env)
    if zygote is None or _shadowed(folder, zygote.modules):
        return None
    return zygote


def _seed(number: int) -> str:
    """This process's `PYTHONHASHSEED` number `number`: drawn when first asked, unlike the others."""
    while number not in _seeds:
        value = str(random.SystemRandom().randrange(1, 2**32))  # 0 would turn randomization off
        if value not in _seeds.values():
            _seeds[number] = value
    return _seeds[number]


def _zygote(key: _Key, env: dict[str, str]) -> _Zygote | None:
    """The running zygote for `key`, started if need be; None when all allowed are busy. Its
    children take the run's environment (`_child`): the seed is the zygote's alone."""
    global _folder
    found = _zygotes.pop(key, None)
    if found is not None and found.process.poll() is None:
        _zygotes[key] = found  # most recently used last
        return found
    if _folder is None:
        _folder = tempfile.mkdtemp(prefix="mcpdeps-zygotes-")
        atexit.register(_stop_all)
    while len(_zygotes) >= MAX_ZYGOTES:
        idle = next((k for k, z in _zygotes.items() if not z.busy), None)
        if idle is None:
            return None
        _stop(_zygotes.pop(idle))
    path = os.path.join(_folder, f"z{next(_names)}.sock")
    process = subprocess.Popen(
        [sys.executable, str(ZYGOTE), path, key[0]],
        cwd=_folder,
        env=env if key[2] is None else {**env, HASH_SEED: key[2]},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
    )
    assert process.stdout is not None
    if process.stdout.readline() != b"ready\n":
        raise RuntimeError(f"the mcpdeps zygote for {key[0]!r} did not start (exit {process.wait()})")
    _zygotes[key] = _Zygote(process, path, frozenset(json.loads(process.stdout.readline())))
    return _zygotes[key]


def _stop(zygote: _Zygote) -> None:
    """No new runs; the zygote ends with its last (a launcher's server may still be running)."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.connect(zygote.socket)
            connection.sendall(b'{"drain": true}\n')
            running = json.loads(_Replies(connection).line(time.monotonic() + 30) or b"")["running"]
    except (OSError, RuntimeError, ValueError, KeyError):
        zygote.process.terminate()
        running = 0
    if not running:
        zygote.process.wait()
    os.unlink(zygote.socket)


def _stop_all() -> None:
    """At exit: stop every zygote and remove the folder of their sockets (one per worker and
    session was left in the temporary folder, empty)."""
    while _zygotes:
        _stop(_zygotes.popitem()[1])
    if _folder is not None:
        shutil.rmtree(_folder, ignore_errors=True)


def _key(env: Mapping[str, str]) -> frozenset[tuple[str, str]]:
    """What tells zygotes apart: the environment but the variables no import reads."""
    return frozenset((name, value) for name, value in env.items() if name not in PER_RUN)


def _ask(
    path: str,
    command: list[str],
    args: list[str],
    cwd: str,
    env: dict[str, str],
    input: str | None,
    timeout: float | None,
) -> subprocess.CompletedProcess[str]:
    deadline = None if timeout is None else time.monotonic() + timeout
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    in_r, in_w = os.pipe() if input is not None else (0, -1)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(path)
        inherited = cli_launcher.inherited()
        request = json.dumps({"args": args, "cwd": cwd, "env": env, **inherited}).encode() + b"\n"
        sent = socket.send_fds(connection, [request], [in_r, out_w, err_w])
        connection.sendall(request[sent:])
        for fd in (out_w, err_w, *([in_r] if input is not None else [])):
            os.close(fd)
        replies = _Replies(connection)
        pid = json.loads(replies.line(None) or b"")["pid"]
        data = None if input is None else input.encode(subprocess._text_encoding(), "strict")  # type: ignore[attr-defined]
        try:
            stdout, stderr = _communicate(out_r, err_r, in_w, data, deadline)
        except subprocess.TimeoutExpired as expired:
            os.kill(pid, signal.SIGKILL)
            replies.line(None)  # the zygote has reaped it
            raise subprocess.TimeoutExpired(command, timeout or 0, expired.output, expired.stderr) from None
        left = None if deadline is None else deadline - time.monotonic()
        line = replies.line(deadline)
        if line is None:  # outputs closed, process still running: `wait` times out, without output
            os.kill(pid, signal.SIGKILL)
            replies.line(None)
            raise subprocess.TimeoutExpired(command, left or 0)
    status = json.loads(line)["status"]
    return subprocess.CompletedProcess(command, os.waitstatus_to_exitcode(status), *_decoded(stdout, stderr))


class _Replies:
    """The zygote's answers on one connection, a line each (the pid, then the wait status)."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection
        self.buffer = b""

    def line(self, deadline: float | None) -> bytes | None:
        """The next line, or None when `deadline` (of `time.monotonic`) passes first."""
        while b"\n" not in self.buffer:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return None
            self.connection.settimeout(remaining)
            try:
                chunk = self.connection.recv(4096)
            except TimeoutError:
                return None
            if not chunk:
                raise RuntimeError("the mcpdeps zygote ended while a run was in progress")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line


def _decoded(stdout: bytes, stderr: bytes) -> tuple[str, str]:
    """As `subprocess` decodes a text-mode run's captured output."""
    encoding = subprocess._text_encoding()  # type: ignore[attr-defined]
    return tuple(  # type: ignore[return-value]
        data.decode(encoding, "strict").replace("\r\n", "\n").replace("\r", "\n") for data in (stdout, stderr)
    )


def _communicate(
    out_r: int, err_r: int, in_w: int, data: bytes | None, deadline: float | None
) -> tuple[bytes, bytes]:
    """Read both outputs to their end while writing the input, as `Popen.communicate` does.

    On the deadline, `TimeoutExpired` carries the bytes read so far, or None (as `subprocess` does)."""
    chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}
    offset = 0
    with selectors.DefaultSelector() as selector:
        selector.register(out_r, selectors.EVENT_READ)
        selector.register(err_r, selectors.EVENT_READ)
        if in_w >= 0:
            if data:
                os.set_blocking(in_w, False)
                selector.register(in_w, selectors.EVENT_WRITE)
            else:
                os.close(in_w)
        try:
            while selector.get_map():
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:  # None where nothing came, as there
                    output, errors = (b"".join(chunks[fd]) if chunks[fd] else None for fd in (out_r, err_r))
                    raise subprocess.TimeoutExpired("", 0, output, errors) from None
                for key, _ in selector.select(remaining):
                    fd = key.fd
                    if fd == in_w:
                        try:
                            offset += os.write(fd, data[offset : offset + 65536])  # type: ignore[index]
                        except BrokenPipeError:
                            offset = len(data)  # type: ignore[arg-type]
                        if offset >= len(data):  # type: ignore[arg-type]
                            selector.unregister(fd)
                            os.close(fd)
                        continue
                    block = os.read(fd, 65536)
                    if block:
                        chunks[fd].append(block)
                    else:
                        selector.unregister(fd)
                        os.close(fd)
        except BaseException:
            for key in list(selector.get_map().values()):
                os.close(key.fd)
            raise
    return b"".join(chunks[out_r]), b"".join(chunks[err_r])
