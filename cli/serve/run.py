"""Start the loaded server on its transport, with banner, warnings and the optional Inspector.

Separate from `serve_cmd` so the command module stays free of mcp/uvicorn
imports; everything here runs after the server has been imported.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType

from mcpdeps.cli.serve.banner import BannerFacts, live_graph, render_banner
from mcpdeps.cli.serve.http import HttpOptions, bind_socket, is_loopback, run_http
from mcpdeps.cli.serve.inspector import Inspector, npx_path, start_inspector
from mcpdeps.cli.serve.reload import RELOAD_CHILD_ENV
from mcpdeps.resolver_core.loading import LoadedServer
from rich.console import Console
from rich.panel import Panel


@dataclass(slots=True)
class ServeRequest:
    """What the user asked for, validated, with the server already imported.

    The HTTP settings are the same object the worker processes rebuild the app from.
    """

    loaded: LoadedServer
    transport: str
    http: HttpOptions
    inspector: bool = False
    banner: bool = True
    argv: Sequence[str] = ()


class _Stopped(Exception):
    """SIGTERM, turned into an exception so `finally` blocks (the Inspector's cleanup) run."""


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise _Stopped


def run(request: ServeRequest, console: Console) -> None:
    """Serve until the client hangs up (stdio) or the user interrupts (Ctrl+C, SIGTERM): exit 0.

    uvicorn re-raises the signal that stopped it once it has shut down; with the
    default SIGTERM disposition that would kill us before cleanup, hence the handler.
    """
    logging.getLogger().setLevel(request.http.log_level.upper())
    previous = signal.signal(signal.SIGTERM, _raise_stopped)
    try:
        if request.transport == "stdio":
            _run_stdio(request, console)
        else:
            _run_http(request, console)
    except (KeyboardInterrupt, _Stopped):
        console.print("[dim]mcpdeps serve: stopped[/dim]")
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run_stdio(request: ServeRequest, console: Console) -> None:
    if request.inspector:
        command = [sys.executable, "-m", "mcpdeps", *_without(request.argv, "--inspector"), "--no-banner"]
        inspector = start_inspector(command, transport="stdio")
        _banner(request, console, None, inspector)
        try:
            inspector.process.wait()
        finally:
            inspector.stop()
        return
    _banner(request, console, None, None)
    import anyio

    anyio.run(request.loaded.server.run_stdio_async)


def _run_http(request: ServeRequest, console: Console) -> None:
    options = request.http
    if request.http.workers > 1:
        from mcpdeps.cli.serve.keys import require_shared_keys

        require_shared_keys(
            request.loaded.server, request.http.spec, Path(request.http.cwd), request.http.workers
        )
    if request.inspector:
        npx_path()  # a missing Node.js is reported before the port is taken
    sock = bind_socket(request.http.host, request.http.port)
    if request.http.port == 0:
        options = replace(options, port=sock.getsockname()[1])
    inspector = start_inspector([options.url()], transport="http") if request.inspector else None
    try:
        _banner(request, console, options, inspector)
        if not is_loopback(request.http.host):
            exposure_warning(options, console)
        run_http(request.loaded.server, options, sock)
    finally:
        sock.close()
        if inspector is not None:
            inspector.stop()


def _banner(
    request: ServeRequest, console: Console, options: HttpOptions | None, inspector: Inspector | None
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
        reload=bool(os.environ.get(RELOAD_CHILD_ENV)),
        inspector_url=inspector.url if inspector else None,
        notes=tuple(notes),
    )
    render_banner(live_graph(request.loaded), request.loaded, facts, console)


def exposure_warning(options: HttpOptions, console: Console) -> None:
    """Binding beyond loopback exposes every tool to the network: say so, loudly."""
    everyone = options.host in ("0.0.0.0", "::", "")
    who = "every network interface" if everyone else f"{options.host}"
    console.print(
        Panel(
            f"Listening on {who}, port {options.port}: anyone who can reach this machine can list and "
            "call these tools, with no authentication. DNS-rebinding protection stays on: requests "
            "whose Host header is not this machine's name or a loopback name get HTTP 421 "
            "(add names with --allow-host). Use --host 127.0.0.1 unless you mean it.",
            title="WARNING: server exposed beyond this machine",
            border_style="bold red",
            style="red",
        )
    )


def _without(argv: Sequence[str], flag: str) -> list[str]:
    return [a for a in argv if a != flag]
