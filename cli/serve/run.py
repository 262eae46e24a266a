"""Start the server on its transport, with banner, warnings and the optional Inspector.

Separate from `serve_cmd` so the command module stays free of mcp/uvicorn imports.
The server runs in one of two places, behind `_Host`: imported into this process
(mcpdeps' own interpreter can import it), or in the runner under the project's
interpreter (`cli/runner`), which reports the banner's facts and then serves on the
socket (HTTP) or the stdin/stdout (stdio) we hand it. Banner, exposure warning,
Inspector and the port check are the same either way. What it has to say (banner,
exposure warning, "stopped") goes through an `output.ServeOutput`, so this module
imports no rich: `serve` and `mcp` pass `terminal.TerminalOutput`.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path
from types import FrameType

from ...resolver_core.loading import LoadedServer
from ...resolver_core.model import Graph
from ...resolver_core.records import slotted
from ..runner.interpreter import Interpreter
from ..runner.parent import RunningTask, start_task, stop, wait_for
from .http import HttpOptions, bind_socket, is_loopback, run_http
from .inspector import Inspector, npx_path, start_inspector
from .output import BannerFacts, ServeOutput
from .reload import RELOAD_CHILD_ENV
from .served import Served, served_graph


@slotted
class ServeRequest:
    """What the user asked for, validated; `loaded` is the imported server when this process runs it.

    The HTTP settings are the same object the worker processes rebuild the app from.
    """

    loaded: LoadedServer | None
    transport: str
    http: HttpOptions
    interpreter: Interpreter | None = None
    """Which Python runs the server (named in the banner); the runner's when `loaded` is None."""
    spec: str | None = None
    """The spec as given: what the runner loads when `loaded` is None."""
    inspector: bool = False
    banner: bool = True
    argv: Sequence[str] = ()
    verbose: bool = False


class _Stopped(Exception):
    """SIGTERM, turned into an exception so `finally` blocks (the Inspector's cleanup) run."""


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise _Stopped


def run(request: ServeRequest, output: ServeOutput) -> int:
    """Serve until the client hangs up (stdio, exit 0) or the user stops it (Ctrl+C: 130, SIGTERM: 0).

    uvicorn re-raises the signal that stopped it once it has shut down; with the
    default SIGTERM disposition that would kill us before cleanup, hence the handler.
    Returns the exit code (the runner's, when it served and failed).
    """
    from .logs import install as install_logs

    install_logs(request.http.log_level)  # after the import: replaces the SDK's rich handler
    previous = signal.signal(signal.SIGTERM, _raise_stopped)
    host: _Host = _InProcess(request.loaded) if request.loaded is not None else _Runner(request)
    try:
        if request.transport == "stdio":
            return _run_stdio(request, host, output)
        return _run_http(request, host, output)
    except KeyboardInterrupt:
        _say_stopped(output)
        return 130  # the shell's convention for Ctrl+C
    except _Stopped:
        _say_stopped(output)
        return 0
    finally:
        host.stop()
        signal.signal(signal.SIGTERM, previous)


def _say_stopped(output: ServeOutput) -> None:
    """Under --reload the watcher says why its child stopped ("reloading: ..."), not the child."""
    if not os.environ.get(RELOAD_CHILD_ENV):
        output.stopped()


class _Host:
    """Where the server runs: `start` it (the banner's facts come back), `serve` until it ends."""

    served: Served
    graph: Graph

    def start(self, transport: str, options: HttpOptions, sock_fd: int | None, dry: bool = False) -> None:
        """Import (or have the runner import) the server; `dry`: for the banner only, never served."""
        raise NotImplementedError

    def serve(self, options: HttpOptions, sock: object | None) -> int:
        raise NotImplementedError

    def stop(self) -> None:
        """Nothing to clean up unless a process was started."""


class _InProcess(_Host):
    def __init__(self, loaded: LoadedServer) -> None:
        self.loaded = loaded
        self.served = Served.of(loaded)

    def start(self, transport: str, options: HttpOptions, sock_fd: int | None, dry: bool = False) -> None:
        if transport == "http" and options.workers > 1:
            from .keys import require_shared_keys

            require_shared_keys(self.loaded.server, options.spec, Path(options.cwd), options.workers)
        self.graph = served_graph(self.loaded)

    def serve(self, options: HttpOptions, sock: object | None) -> int:
        if sock is None:
            from .stdio import serve_stdio

            stopped_by = serve_stdio(self.loaded.server)
            if stopped_by == signal.SIGINT:
                raise KeyboardInterrupt
            if stopped_by is not None:
                raise _Stopped
        else:
            run_http(self.loaded.server, options, sock)  # type: ignore[arg-type]
        return 0


class _Runner(_Host):
    """The runner under the project's interpreter; it inherits our stdin/stdout on stdio."""

    def __init__(self, request: ServeRequest) -> None:
        self.request = request
        self.task: RunningTask | None = None

    def start(self, transport: str, options: HttpOptions, sock_fd: int | None, dry: bool = False) -> None:
        from ...resolver_core.graph_wire import from_wire

        assert self.request.interpreter is not None
        self.task = start_task(
            self.request.interpreter,
            "serve",
            {
                "spec": self.request.spec,
                "transport": transport,
                "http": asdict(options),
                "socket_fd": sock_fd,
                "dry": dry,
                "verbose": self.request.verbose,
            },
            keep_fds=() if sock_fd is None else (sock_fd,),
        )
        self.served = Served.from_data(self.task.report["served"])
        self.graph = from_wire(self.task.report["graph"])

    def serve(self, options: HttpOptions, sock: object | None) -> int:
        assert self.task is not None
        code, stopped = wait_for(self.task)
        if stopped:
            raise KeyboardInterrupt  # forwarded to the runner, which stopped cleanly
        return code if code > 0 else 0

    def stop(self) -> None:
        if self.task is not None:
            stop(self.task)


def _run_stdio(request: ServeRequest, host: _Host, output: ServeOutput) -> int:
    if request.inspector:
        command = [sys.executable, "-m", "mcpdeps", *_without(request.argv, "--inspector"), "--no-banner"]
        host.start("stdio", request.http, None, dry=True)  # the banner's facts: the Inspector starts it
        inspector = start_inspector(command, transport="stdio")
        _banner(request, host, output, None, inspector)
        try:
            inspector.process.wait()
        finally:
            inspector.stop()
        return 0
    host.start("stdio", request.http, None)
    _banner(request, host, output, None, None)
    return host.serve(request.http, None)


def _run_http(request: ServeRequest, host: _Host, output: ServeOutput) -> int:
    options = request.http
    if isinstance(host, _InProcess):
        host.start("http", options, None)  # the shared-key probe runs before the port is taken
    if request.inspector:
        npx_path()  # a missing Node.js is reported before the port is taken
    sock = bind_socket(request.http.host, request.http.port)
    inspector: Inspector | None = None
    try:
        if request.http.port == 0:
            options = replace(options, port=sock.getsockname()[1])
        if isinstance(host, _Runner):
            host.start("http", options, sock.fileno())
        inspector = start_inspector([options.url()], transport="http") if request.inspector else None
        _banner(request, host, output, options, inspector)
        if not is_loopback(request.http.host):
            output.exposure_warning(options)
        return host.serve(options, sock)
    finally:
        sock.close()
        if inspector is not None:
            inspector.stop()


def _banner(
    request: ServeRequest,
    host: _Host,
    output: ServeOutput,
    options: HttpOptions | None,
    inspector: Inspector | None,
) -> None:
    if not request.banner:
        return
    notes: list[str] = []
    if options is not None and options.workers > 1:
        notes.append(
            "Stateless workers: multi-round calls need protocol 2026-07-28 clients; legacy clients "
            "cannot be asked questions mid-call."
        )
    if os.environ.get(RELOAD_CHILD_ENV):
        notes.append("Started by --reload; a change to a watched file restarts it.")
    if request.transport == "stdio" and not request.inspector and sys.stdin.isatty():
        notes.append(
            "Waiting for an MCP client on stdin (a terminal is not one): let a client launch this command, "
            "try a tool with `mcpdeps call`, or serve with --transport http or --inspector."
        )
    facts = BannerFacts(
        transport=request.transport,
        url=options.url() if options else None,
        workers=request.http.workers,
        sessions=_sessions(options) if options is not None and options.workers <= 1 else None,
        reload=bool(os.environ.get(RELOAD_CHILD_ENV)),
        inspector_url=inspector.url if inspector else None,
        notes=tuple(notes),
        interpreter=request.interpreter.describe() if request.interpreter else None,
    )
    output.banner(host.graph, host.served, facts)


def _sessions(options: HttpOptions) -> str:
    """`at most 100 open, closed after 5 min idle` (stateless workers keep no sessions)."""
    idle = options.session_idle_timeout
    shown = f"{idle / 60:g} min" if idle >= 60 and idle % 60 == 0 else f"{idle:g} s"
    return f"at most {options.max_sessions} open, each closed after {shown} idle"


def _without(argv: Sequence[str], flag: str) -> list[str]:
    return [a for a in argv if a != flag]
