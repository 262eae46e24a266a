"""A process that has imported mcpdeps' command line and forks one child per `mcpdeps` run.

Run as `python tests/cli_zygote.py SOCKET COMMAND [--live]` by `tests/forked_cli.py`, which
says why and when. COMMAND (and `--live`) is what `cli/main.py` reads from `sys.argv` when
it is imported (the collector, pydantic's plugins): the zygote imports it under the words
its children will run, so that the import-time setup is theirs.

Each request on SOCKET carries the command line, the working folder and the environment as
JSON, and three file descriptors: standard input, output and error. The child becomes what `python -m
mcpdeps ARGS` is at its first line:
- those descriptors as 0, 1 and 2, and no other open;
- the standard streams rebuilt as the interpreter builds them;
- `sys.path[0]` the working folder;
- `runpy` running `mcpdeps.__main__` as `-m` does;
- the interpreter's exit: threads joined, `atexit` run, streams flushed, 120 if that fails.
When it listens, the zygote prints `ready` and the top-level modules it holds (a run's
folder holding one of those names would shadow it in a fresh run). It answers a child's pid at once, and its wait status when it ends, on the same
connection. It never runs a command itself, so each child starts from the same state.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import selectors
import signal
import socket
import sys
import traceback
import types

sys.path[0] = os.getcwd()  # as `python -m` has it, not this file's folder
SOCKET, *WORDS = sys.argv[1:]
sys.argv = [sys.argv[0], *WORDS]
import mcpdeps.cli.main  # noqa: E402, F401  (its import-time setup reads sys.argv)

PRELOAD = {
    "lint": (
        "mcpdeps.cli.fast_start",
        "mcpdeps.lint_rules.checking",
        "mcpdeps.resolver_core.builder",
        "rich.console",
    ),
    "graph": ("mcpdeps.cli.app", "mcpdeps.cli.graph.render", "mcpdeps.cli.graph.sources"),
    "new": ("mcpdeps.cli.app", "libcst"),
}
"""What a run of the command family imports anyway on a test's project, imported once here.
None of it registers an `atexit` hook or starts a thread that a fresh run would not (`lint`
ends with `os._exit` only without them); `lint` would load typer only for help and errors."""

for _name in PRELOAD.get(WORDS[0], ("mcpdeps.cli.app",)):
    __import__(_name)
TEMPLATES = (sys.stdin, sys.stdout, sys.stderr)
"""The zygote's own streams: same interpreter, same environment, so the same encodings,
errors and buffering that a child's interpreter would choose."""
STREAM_NAMES = ("<stdin>", "<stdout>", "<stderr>")


def _stream(fd: int) -> io.TextIOWrapper:
    """Standard stream `fd`, built as CPython's `create_stdio` builds it on POSIX."""
    template = TEMPLATES[fd]
    writing = fd != 0
    unbuffered = writing and template.write_through  # `-u` / PYTHONUNBUFFERED
    buffer = open(fd, "wb" if writing else "rb", 0 if unbuffered else -1, closefd=False)  # noqa: SIM115
    raw = buffer if unbuffered else buffer.raw
    raw.name = STREAM_NAMES[fd]  # type: ignore[misc]
    stream = io.TextIOWrapper(
        buffer,  # type: ignore[arg-type]
        template.encoding,
        template.errors,
        "\n",
        line_buffering=not unbuffered and (raw.isatty() or fd == 2),
        write_through=unbuffered,
    )
    stream.mode = "w" if writing else "r"  # type: ignore[misc]
    return stream


def _exit_code(exc: BaseException) -> int:
    """What the interpreter exits with for an exception that ends `-m` (`handle_system_exit`)."""
    if isinstance(exc, SystemExit):
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 0xFF
        print(code, file=sys.stderr)
        return 1
    sys.excepthook(type(exc), exc, exc.__traceback__)
    return 1


def _finish(code: int, interrupted: bool) -> None:
    """The interpreter's exit after `__main__`: join threads, run `atexit`, flush, end (by
    SIGINT itself after an uncaught KeyboardInterrupt, as the interpreter does)."""
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()  # type: ignore[attr-defined]
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # the interpreter reports any of them so
            try:
                print(f"Exception ignored in: {stream!r}", file=sys.__stderr__)
                traceback.print_exc(file=sys.__stderr__)
            except Exception:
                pass
            code = 120
    if interrupted:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(code)


def _child(request: dict[str, object], fds: list[int]) -> None:
    """Become `python -m mcpdeps ARGS` in the request's folder on the given descriptors."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    os.environ.clear()  # the run's own, which differs from the zygote's in PER_RUN only
    os.environ.update(request["env"])  # type: ignore[arg-type]
    os.chdir(str(request["cwd"]))
    sys.path[0] = os.getcwd()
    sys.stdin, sys.stdout, sys.stderr = (_stream(0), _stream(1), _stream(2))
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr
    args = [str(arg) for arg in request["args"]]  # type: ignore[attr-defined]
    sys.argv = ["-m", *args]  # what the interpreter has until runpy names the module's file
    sys.orig_argv = [sys.executable, "-m", "mcpdeps", *args]
    sys.modules["__main__"] = types.ModuleType("__main__")
    import runpy

    interrupted = False
    try:
        runpy._run_module_as_main("mcpdeps")  # type: ignore[attr-defined]
        code = 0
    except BaseException as exc:  # every ending of `-m`, handled as the interpreter does
        code = _exit_code(exc)
        interrupted = isinstance(exc, KeyboardInterrupt)
    _finish(code, interrupted)


def _serve() -> None:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(SOCKET)
    listener.listen(64)
    loaded = sorted({name.partition(".")[0] for name in sys.modules})
    os.write(1, b"ready " + json.dumps(loaded).encode() + b"\n")
    waiting: dict[int, tuple[int, socket.socket]] = {}  # pidfd -> (pid, connection)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    while True:
        for key, _ in selector.select():
            if key.fileobj is listener:
                connection, _ = listener.accept()
                message, fds, _, _ = socket.recv_fds(connection, 1 << 16, 3)
                while not message.endswith(b"\n"):  # a stream: the rest may come apart
                    message += connection.recv(1 << 16) or b"\n"
                pid = os.fork()
                if pid == 0:
                    _child(json.loads(message), fds)
                for fd in fds:
                    os.close(fd)
                pidfd = os.pidfd_open(pid)
                waiting[pidfd] = (pid, connection)
                selector.register(pidfd, selectors.EVENT_READ)
                connection.sendall(json.dumps({"pid": pid}).encode() + b"\n")
            else:
                pidfd = key.fd
                pid, connection = waiting.pop(pidfd)
                selector.unregister(pidfd)
                os.close(pidfd)
                _, status = os.waitpid(pid, 0)
                with contextlib.suppress(OSError):  # the test that asked may be gone
                    connection.sendall(json.dumps({"status": status}).encode() + b"\n")
                connection.close()


if __name__ == "__main__":
    _serve()
