"""`mcpdeps mcp`: mcpdeps itself as an MCP server, for the coding agents that write MCP servers.

Thin: the server is `cli/agent/server.py` (imported here, inside the command, so
`mcpdeps lint` never pays for the SDK), run by `serve`'s own `run()`: the same
stdio loop, the same HTTP app (the socket bound up front, DNS-rebinding protection,
the exposure warning beyond loopback), the same banner on stderr and signal handling.
"""

from __future__ import annotations

from dataclasses import replace

import typer

from ..errors import UserError
from ..main import command_line
from ..serve.command import LOG_LEVELS, TRANSPORTS
from ..shared_options import HOST, HTTP_PATH, LOG_LEVEL, PORT, TRANSPORT, VERBOSE_SERVING
from ..typer_options import typer_option


def mcp(
    transport: str = typer_option(replace(TRANSPORT, help="stdio (a client launches this command) or http.")),
    host: str = typer_option(replace(HOST, help="Address to bind (HTTP); loopback unless you mean it.")),
    port: int = typer_option(PORT),
    path: str = typer_option(HTTP_PATH),
    log_level: str = typer_option(replace(LOG_LEVEL, default="warning")),
    verbose: bool = typer_option(VERBOSE_SERVING),
) -> None:
    """Serve lint, graph, explain and fix as MCP tools for coding agents (stdio, or HTTP on loopback)."""
    kind = TRANSPORTS.get(transport.lower())
    if kind is None:
        raise UserError(f"Unknown transport {transport!r}: use stdio or http (streamable-http).")
    if log_level.lower() not in LOG_LEVELS:
        raise UserError(f"Unknown log level {log_level!r}: use one of {', '.join(LOG_LEVELS)}.")
    if not path.startswith("/"):
        raise UserError(f"--path must start with '/', got {path!r}.")
    from pathlib import Path

    from rich.console import Console

    from ...resolver_core.loading import LoadedServer
    from ..serve.http import HttpOptions
    from ..serve.run import ServeRequest, run
    from ..serve.terminal import TerminalOutput
    from . import server as module

    loaded = LoadedServer(module.server, module.__name__, Path(module.__file__), "server")
    http = HttpOptions(
        spec=f"{loaded.path}:{loaded.attribute}",
        cwd=str(Path.cwd()),
        host=host,
        port=port,
        path=path,
        log_level=log_level.lower(),
    )
    # Over stdio a client launched this process and keeps its stderr as a log: a `serve` banner
    # there is noise in every client's logs, so only a person starting HTTP gets one.
    request = ServeRequest(
        loaded=loaded, transport=kind, http=http, argv=command_line(), verbose=verbose, banner=kind == "http"
    )
    raise typer.Exit(run(request, TerminalOutput(Console(stderr=True))))
