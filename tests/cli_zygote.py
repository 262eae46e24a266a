"""A process that has imported mcpdeps' command line and forks one child per `mcpdeps` run.

Run as `python tests/cli_zygote.py SOCKET FAMILY` by `tests/forked_cli.py`, which says why
and when. FAMILY (`forked_cli.family`) stands for the words `cli/main.py` reads from
`sys.argv` when it is imported (the collector, pydantic's plugins): the zygote imports it
under the words its children will run (`WORDS`), so that the import-time setup is theirs,
then what that family's runs import anyway (`PRELOAD`: for the runs of the user's code, the
SDK, which is most of their start-up).

Each request on SOCKET carries the command line and the working folder as JSON, and three
file descriptors: standard input, output and error. The child becomes what `python -m
mcpdeps ARGS` is at its first line:
- those descriptors as 0, 1 and 2, and no other open;
- the standard streams rebuilt as the interpreter builds them;
- `sys.path[0]` the working folder, and the asking process's umask and resource limits;
- `runpy` running `mcpdeps.__main__` as `-m` does;
- the interpreter's exit: threads joined, `atexit` run, streams flushed, 120 if that fails,
  and (for the runs of the user's code, `_tears_down`) the modules torn down.
The zygote writes `ready` and the modules a run's folder could shadow (`_shadowable`) when
it listens. It answers the child's pid at once, and its wait status when it ends, on the same
connection. It never runs a command itself, so each child starts from the same state.

A request from `tests/cli_launcher.py` (the process a test spawned for a long-running server)
also carries the launcher's signal dispositions and mask: its child takes them, starts a
session of its own and answers its pid itself (`_as_launched`); the zygote refuses, and the
launcher runs fresh, an environment that is not its own; and when the launcher's connection
ends (it died, even by SIGKILL) the zygote kills the child's process group (`_kill`). Asked to
drain (`forked_cli._stop`), it stops listening and ends with its last run.
"""

from __future__ import annotations

import sys

STARTED = frozenset(sys.modules)
"""What the interpreter imported before `-m` puts the run's folder first on `sys.path` (taken
before this file's own imports: a fresh run may never import `json` or `socket`)."""

import _imp  # noqa: E402
import contextlib  # noqa: E402
import gc  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import selectors  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import types  # noqa: E402

if not sys.flags.safe_path:  # PYTHONSAFEPATH: `-m` puts no folder there
    sys.path[0] = os.getcwd()  # as `python -m` has it, not this file's folder
SOCKET, FAMILY = sys.argv[1:]
ENVIRONMENT = dict(os.environ)
"""What this zygote was started under: a launcher's run must have it (`_serve`)."""
PER_RUN = ("PYTEST_CURRENT_TEST",)
"""As `forked_cli.PER_RUN`: the variables a child takes from its request, read by no import."""
WORDS = {"live": ["graph", "--live"]}.get(FAMILY, [FAMILY])
"""What `cli/main.py` acts on: the first word, and whether `--live` is among the others."""
sys.argv = [sys.argv[0], *WORDS]
import mcpdeps.cli.main  # noqa: E402, F401  (its import-time setup reads sys.argv)

SDK = ("mcpdeps.cli.app", "mcp.server", "mcp.client", "mcpdeps.resolver_core.loading")
"""What every run of `serve`, `call`, `mcp` and `graph --live` imports before it puts the
user's folders on `sys.path` and imports their code (~1 s of CPU: mostly `mcp_types`'
pydantic models). Not the engines imported only after (`resolver_core/live.py`,
`cli/serve/stdio.py`): the user's code would find them imported already. The SDK's own
modules read no environment, arguments or folder when imported; pydantic's plugins are
looked up then, on `sys.path` (`forked_cli` runs a folder holding a distribution fresh)."""


EXIT_HOOKS = ("logging", "multiprocessing.util")
"""Standard modules that register an `atexit` hook when imported, as they do in a fresh run
(which imports them with the SDK, before the user's code)."""


def _process_state() -> tuple[object, ...]:
    """What the preloaded imports must leave as a fresh interpreter has it before `__main__`:
    signal handlers, threads, exit hooks (but `EXIT_HOOKS`'), the root logger, warnings
    filters, environment, `sys.path`."""
    import atexit
    import threading
    import warnings

    logging = sys.modules.get("logging")
    root = (30, []) if logging is None else (logging.root.level, list(logging.root.handlers))
    handlers = [
        signal.getsignal(n) for n in signal.valid_signals() if n not in (signal.SIGKILL, signal.SIGSTOP)
    ]
    hooks = atexit._ncallbacks() - sum(name in sys.modules for name in EXIT_HOOKS)
    return (
        handlers,
        threading.active_count(),
        hooks,
        root,
        list(warnings.filters),
        dict(os.environ),
        list(sys.path),
    )


PRELOAD = {
    "lint": (
        "mcpdeps.cli.fast_start",
        "mcpdeps.lint_rules.checking",
        "mcpdeps.resolver_core.builder",
        "rich.console",
    ),
    "graph": ("mcpdeps.cli.app", "mcpdeps.cli.graph.render", "mcpdeps.cli.graph.sources"),
    "new": ("mcpdeps.cli.app", "libcst"),
    **dict.fromkeys(("serve", "call", "mcp", "live"), SDK),
}
"""What a run of the command family imports anyway on a test's project, imported once here.
None of it registers an `atexit` hook or starts a thread that a fresh run would not (`lint`
ends with `os._exit` only without them; `_process_state` checks the SDK's); `lint` would load typer
only for help and errors."""

_before = _process_state() if PRELOAD.get(FAMILY) == SDK else None
for _name in PRELOAD.get(FAMILY, ("mcpdeps.cli.app",)):
    __import__(_name)
if _before is not None and _process_state() != _before:
    raise SystemExit(f"importing {SDK} changed what a fresh run would start the user's code with")
USER_CODE = ("serve", "call", "mcp")
"""The commands that import the user's code (with any command's `--live`)."""


def _tears_down(args: list[str]) -> bool:
    """Whether a run ends with the interpreter's own teardown (its `SystemExit` leaves this
    script): the modules freed one by one, so that finalizers run and files nobody closed are
    flushed, as at the end of a fresh run. The runs of the user's code do, whose objects may
    need it. The others run only mcpdeps' own code, whose outputs and files
    `tests/test_forked_cli.py` compares: they end as `_finish` ends (tearing the zygote's heap
    down cost ~60 ms a run, a third of what forking saves)."""
    return args[:1] in [[name] for name in USER_CODE] or "--live" in args


TEMPLATES = (sys.stdin, sys.stdout, sys.stderr)
"""The zygote's own streams: same interpreter, same environment, so the same encodings,
errors and buffering that a child's interpreter would choose."""
STREAM_NAMES = ("<stdin>", "<stdout>", "<stderr>")


def _stream(fd: int) -> io.TextIOWrapper:
    """Standard stream `fd`, built as CPython's `create_stdio` builds it on POSIX."""
    template = TEMPLATES[fd]
    writing = fd != 0
    unbuffered = TEMPLATES[1].write_through  # `-u` / PYTHONUNBUFFERED: all three write through
    raw_io = unbuffered and writing  # stdin stays buffered (TextIOWrapper needs its read1)
    buffer = open(fd, "wb" if writing else "rb", 0 if raw_io else -1, closefd=False)  # noqa: SIM115
    raw = buffer if raw_io else buffer.raw
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


def _shadowable() -> list[str]:
    """The top-level modules imported here that a fresh run would look up on `sys.path`, where
    its folder comes first (`forked_cli` runs a folder holding one of them fresh)."""
    if sys.flags.safe_path:
        return []
    names = {name.partition(".")[0] for name in set(sys.modules) - STARTED}
    return sorted(n for n in names if n not in sys.builtin_module_names and not _imp.is_frozen(n))


def _exit_code(exc: SystemExit) -> int:
    """What the interpreter exits with for a `SystemExit` that ends `-m` (`handle_system_exit`)."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _finish(code: int, interrupted: bool = False) -> None:
    """The interpreter's exit after `__main__` without the modules' teardown (see `_tears_down`):
    join threads, run `atexit`, flush (120 if that fails), end (by SIGINT itself after an
    uncaught KeyboardInterrupt, as the interpreter does)."""
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()  # type: ignore[attr-defined]
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # the interpreter reports any of them so
            with contextlib.suppress(Exception):
                print(f"Exception ignored in: {stream!r}", file=sys.__stderr__)
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
    os.umask(int(request["umask"]))  # type: ignore[call-overload]  (the test's, maybe not the zygote's)
    for name, limits in request["limits"].items():  # type: ignore[attr-defined]
        if resource.getrlimit(getattr(resource, name)) != tuple(limits):
            resource.setrlimit(getattr(resource, name), tuple(limits))
    if not sys.flags.safe_path:
        sys.path[0] = os.getcwd()
    sys.stdin, sys.stdout, sys.stderr = (_stream(0), _stream(1), _stream(2))
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr
    args = [str(arg) for arg in request["args"]]  # type: ignore[attr-defined]
    sys.argv = ["-m", *args]  # what the interpreter has until runpy names the module's file
    sys.orig_argv = [sys.executable, "-m", "mcpdeps", *args]
    main = sys.modules["__main__"] = types.ModuleType("__main__")
    main.__annotations__ = {}  # as the interpreter makes `__main__`
    _imported_with_the_sdk(main)
    import runpy

    teardown = _tears_down(args)
    launcher = request.get("launcher")
    if isinstance(launcher, dict):  # held since the fork (`_as_launched`): the launcher's mask
        signal.pthread_sigmask(signal.SIG_SETMASK, launcher["mask"])
    try:
        runpy._run_module_as_main("mcpdeps")  # type: ignore[attr-defined]
    except SystemExit as exc:
        if teardown:
            gc.unfreeze()
            raise  # ends this process as it ends `-m`: printed if not a number, then the teardown
        _finish(_exit_code(exc))
    except BaseException as exc:  # printed as the interpreter prints it, from runpy's frame on
        assert exc.__traceback__ is not None
        exc = exc.with_traceback(exc.__traceback__.tb_next)  # what the hook prints, not its argument
        sys.excepthook(type(exc), exc, exc.__traceback__)
        if isinstance(exc, KeyboardInterrupt):
            _finish(1, interrupted=True)  # nothing can run after a teardown to end by SIGINT
        if teardown:
            gc.unfreeze()
            raise SystemExit(1) from None
        _finish(1)
    if teardown:
        gc.unfreeze()
        raise SystemExit(0)
    _finish(0)


HANDLERS = {"ignore": signal.SIG_IGN, "default": signal.SIG_DFL, "interrupt": signal.default_int_handler}


def _as_launched(launcher: dict[str, object], connection: socket.socket) -> None:
    """Start as the fresh process that `tests/cli_launcher.py` stands for: with the signal
    dispositions it started with (what it inherited, as a fresh run inherits them, not what
    this zygote inherited when it started), in a session and process group of its own (as
    `start_new_session` starts one), then answer the pid, which the launcher signals as a
    group. Every signal is held until `__main__` (`_child`): what comes earlier is the run's."""
    signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    for number, how in launcher["signals"].items():  # type: ignore[attr-defined]
        with contextlib.suppress(OSError, ValueError):  # SIGKILL, SIGSTOP, the C library's own
            signal.signal(int(number), HANDLERS[how])
    os.setsid()
    connection.sendall(json.dumps({"pid": os.getpid()}).encode() + b"\n")


def _imported_with_the_sdk(main: types.ModuleType) -> None:
    """What the preloaded `multiprocessing` took from the zygote when imported and a fresh run
    takes from itself: `__main__` (aliased as `__mp_main__`) and a random key of its own."""
    if "__mp_main__" in sys.modules:
        sys.modules["__mp_main__"] = main
    process = sys.modules.get("multiprocessing.process")
    if process is not None:
        process.current_process().authkey = os.urandom(32)  # type: ignore[attr-defined]


def _request(connection: socket.socket) -> tuple[bytes, list[int]]:
    """One request: its JSON line (read to its end: a long command line takes several reads)
    and the descriptors that came with its first bytes."""
    message, fds, _, _ = socket.recv_fds(connection, 1 << 16, 3)
    while message and not message.endswith(b"\n"):
        more = connection.recv(1 << 16)
        if not more:
            break
        message += more
    return message, fds


class _Run:
    """A forked run, and the connection of the process that asked for it."""

    def __init__(self, pid: int, connection: socket.socket, launched: bool) -> None:
        self.pid = pid
        self.connection = connection
        self.launched = launched
        """Asked for by `tests/cli_launcher.py`, which stands for the run until it ends."""
        self.ended = False
        self.alone = False
        """Its launcher is gone."""


def _kill(run: _Run) -> None:
    """SIGKILL to the run's process group: its launcher is gone, which a fresh run would have
    been, its group killed with it. Before its `setsid`, the run alone (it has no group yet);
    after it was reaped, the members it left (uvicorn's workers, `--reload`'s child)."""
    try:
        os.killpg(run.pid, signal.SIGKILL)
    except ProcessLookupError:
        if not run.ended:  # not reaped: the pid is still the run's
            with contextlib.suppress(ProcessLookupError):
                os.kill(run.pid, signal.SIGKILL)
    except PermissionError:
        pass


def _environment(env: dict[str, str]) -> dict[str, str]:
    return {name: value for name, value in env.items() if name not in PER_RUN}


def _freeze() -> None:
    """Out of the collector's sight what the zygote holds when it starts serving (its garbage
    collected first): each child's collections walked all of it, the SDK's models included, and
    wrote to every object's header, copying the pages a fork had shared. 19% of the forked runs'
    CPU on five modules of the suite. A run's teardown puts it back (`_child`), so the
    interpreter's last collection sees what a fresh run's sees."""
    gc.collect()
    gc.freeze()


def _serve() -> None:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(SOCKET)
    listener.listen(64)
    _freeze()
    os.write(1, b"ready\n" + json.dumps(_shadowable()).encode() + b"\n")
    runs: set[_Run] = set()
    draining = False
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    while not draining or runs:
        for key, _ in selector.select():
            if key.fileobj is listener:
                connection, _ = listener.accept()
                message, fds = _request(connection)
                request = json.loads(message)
                if request.get("drain"):  # `forked_cli._stop`: no new runs, end with the last one
                    draining = True
                    selector.unregister(listener)
                    listener.close()
                    connection.sendall(json.dumps({"running": len(runs)}).encode() + b"\n")
                    connection.close()
                    break
                launched = "launcher" in request
                if launched and _environment(request["env"]) != _environment(ENVIRONMENT):
                    for fd in fds:  # its launcher becomes the fresh run
                        os.close(fd)
                    connection.sendall(b'{"fresh": true}\n')
                    connection.close()
                    continue
                pid = os.fork()
                if pid == 0:  # close what the zygote holds: its finalizers would close the run's files
                    for held in (listener, *(r.connection for r in runs)):
                        held.close()
                    selector.close()
                    if launched:
                        _as_launched(request["launcher"], connection)
                    connection.close()
                    _child(request, fds)
                for fd in fds:
                    os.close(fd)
                run = _Run(pid, connection, launched)
                runs.add(run)
                selector.register(os.pidfd_open(pid), selectors.EVENT_READ, run)
                if launched:  # it answers its pid itself, once its group exists
                    selector.register(connection, selectors.EVENT_READ, run)
                else:
                    connection.sendall(json.dumps({"pid": pid}).encode() + b"\n")
            elif key.fileobj is key.data.connection:  # a launcher's end: it is gone
                run = key.data
                with contextlib.suppress(OSError):
                    if run.connection.recv(1):
                        continue  # a launcher sends nothing after its request
                selector.unregister(run.connection)
                run.connection.close()
                run.alone = True
                _kill(run)
                if run.ended:
                    runs.discard(run)
            else:
                run = key.data
                selector.unregister(key.fd)
                os.close(key.fd)
                _, status = os.waitpid(run.pid, 0)
                run.ended = True
                if not run.alone:
                    with contextlib.suppress(OSError):  # the test that asked may be gone
                        run.connection.sendall(json.dumps({"status": status}).encode() + b"\n")
                if not run.launched:
                    run.connection.close()
                if not run.launched or run.alone:
                    runs.discard(run)


if __name__ == "__main__":
    _serve()
