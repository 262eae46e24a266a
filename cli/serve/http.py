"""Streamable HTTP for `mcpdeps serve`: one process, or N uvicorn workers over the stateless app.

Why our own socket: binding it here turns "port in use" into a sentence before
anything starts, and the same socket is handed to uvicorn's worker supervisor.
Why explicit `TransportSecuritySettings`: the SDK only turns DNS-rebinding
protection on by itself for loopback hosts; we keep it on for every host.
"""

from __future__ import annotations

import errno
import ipaddress
import json
import os
import socket
from dataclasses import asdict, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...resolver_core.records import record
from ..errors import UserError
from .logs import LOG_CONFIG

if TYPE_CHECKING:
    from mcp.server import MCPServer
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.applications import Starlette

WORKER_CONFIG_ENV = "MCPDEPS_SERVE_WORKER"
"""Environment variable carrying `HttpOptions` (JSON) to spawned workers."""

WILDCARD_HOSTS = ("0.0.0.0", "::", "")

DEFAULT_MAX_SESSIONS = 100
"""Open sessions a local dev server keeps (the SDK's own default, 10,000, lets clients that never
close their sessions grow one process to hundreds of megabytes); one more is refused until one
ends or idles out."""
DEFAULT_SESSION_IDLE_TIMEOUT = 300.0
"""Seconds without a request after which a session is closed (the SDK's default is 30 minutes)."""


def is_loopback(host: str) -> bool:
    """`localhost`, 127.0.0.0/8 and ::1: only this machine can connect."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@record
class HttpOptions:
    """Everything a worker process needs to rebuild the same app (JSON-serialisable)."""

    spec: str
    """The spec text; workers parse it again relative to `cwd`."""
    cwd: str
    host: str = "127.0.0.1"
    port: int = 8000
    path: str = "/mcp"
    log_level: str = "info"
    workers: int = 1
    allow_hosts: list[str] = field(default_factory=list)
    max_sessions: int = DEFAULT_MAX_SESSIONS
    session_idle_timeout: float = DEFAULT_SESSION_IDLE_TIMEOUT

    @property
    def stateless(self) -> bool:
        """Several workers share no session table, so each request must stand alone."""
        return self.workers > 1

    def url(self) -> str:
        shown = "127.0.0.1" if self.host in WILDCARD_HOSTS else self.host
        shown = f"[{shown}]" if ":" in shown else shown
        return f"http://{shown}:{self.port}{self.path}"


def transport_security(options: HttpOptions) -> TransportSecuritySettings:
    """DNS-rebinding protection: loopback names always, plus the bound host and `--allow-host`s."""
    from mcp.server.transport_security import TransportSecuritySettings

    names = ["127.0.0.1", "localhost", "[::1]"]
    if options.host in WILDCARD_HOSTS:
        names.append(socket.gethostname())
    else:
        names.append(_host_header_name(options.host))
    names.extend(_host_header_name(h) for h in options.allow_hosts)
    names = list(dict.fromkeys(names))
    hosts = [*names, *(f"{n}:*" for n in names)]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[f"{scheme}://{h}" for scheme in ("http", "https") for h in hosts],
    )


def _host_header_name(host: str) -> str:
    """How a host appears in a Host header: IPv6 literals in brackets, names (with a port) as is."""
    try:
        return f"[{host}]" if ipaddress.ip_address(host.strip("[]")).version == 6 else host
    except ValueError:
        return host


def build_app(server: MCPServer, options: HttpOptions) -> Starlette:
    """The SDK's own streamable-HTTP app, stateless when several workers share the port."""
    return server.streamable_http_app(
        streamable_http_path=options.path,
        stateless_http=options.stateless,
        transport_security=transport_security(options),
        host=options.host,
        max_sessions=options.max_sessions,
        session_idle_timeout=options.session_idle_timeout,
    )


def plain_host(host: str) -> str:
    """`[::1]` (how URLs write an IPv6 address) as `::1`, what sockets take."""
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def bind_socket(host: str, port: int) -> socket.socket:
    """Bind the listening socket now, so a busy port is a sentence, not a uvicorn log line."""
    host = plain_host(host)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except socket.gaierror as exc:
        sock.close()
        raise UserError(
            f"--host {host!r} is not an address or a host name this machine knows; give an IP address "
            "(127.0.0.1, ::1, 0.0.0.0) or a name that resolves."
        ) from exc
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UserError(
                f"Port {port} on {host} is already in use (another server is listening there). "
                "Stop it, or pick another port with --port."
            ) from exc
        raise UserError(f"Cannot listen on {host}:{port}: {exc.strerror or exc}.") from exc
    sock.set_inheritable(True)
    return sock


def run_http(server: MCPServer, options: HttpOptions, sock: socket.socket) -> None:
    """Serve on `sock` until interrupted: in this process, or in `options.workers` processes."""
    import uvicorn

    if options.workers <= 1:
        config = uvicorn.Config(
            build_app(server, options), log_level=options.log_level, log_config=LOG_CONFIG, lifespan="on"
        )
        uvicorn.Server(config).run(sockets=[sock])
        return
    from uvicorn.supervisors import Multiprocess

    class Supervisor(Multiprocess):
        """uvicorn's supervisor, remembering a Ctrl+C (it returns normally after any stop signal)."""

        interrupted = False

        def handle_int(self) -> None:
            self.interrupted = True
            super().handle_int()

    os.environ[WORKER_CONFIG_ENV] = json.dumps(asdict(options))
    config = uvicorn.Config(
        "mcpdeps.cli.serve.http:create_worker_app",
        factory=True,
        workers=options.workers,
        log_level=options.log_level,
        log_config=LOG_CONFIG,
        lifespan="on",
    )
    supervisor = Supervisor(config, sockets=[sock])
    supervisor.run()
    if supervisor.interrupted:
        raise KeyboardInterrupt  # exit 130, as with one process (where uvicorn re-raises the signal)


def create_worker_app() -> Any:
    """uvicorn factory run inside each worker: import the server again, build the same app."""
    from ...resolver_core.loading import load_server
    from .logs import install as install_logs

    options = HttpOptions(**json.loads(os.environ[WORKER_CONFIG_ENV]))
    loaded = load_server(options.spec, cwd=Path(options.cwd))
    install_logs(options.log_level)  # each worker, after the SDK configured its own handler
    return build_app(loaded.server, options)
