"""`mcpdeps serve`: run a server locally, safely — lint first, then the SDK's own transports.

Beats `mcp run`: the module is imported under its real name (relative imports
work), errors are sentences, HTTP has host/port/path, reload, env files,
several workers (refused unless request-state keys are shared), and the
Inspector on demand. The heavy work lives in the modules beside this one, imported inside
the command so `mcpdeps lint` does not pay for mcp/uvicorn at start-up.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import UserError
from ..main import command_line
from ..shared_options import HOST, HTTP_PATH, LOG_LEVEL, NO_LINT, PORT, PYTHON, TRANSPORT, VERBOSE_SERVING
from ..typer_options import typer_option
from .http import DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT, plain_host

TRANSPORTS = {"stdio": "stdio", "http": "http", "streamable-http": "http"}
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


def serve(
    spec: Annotated[
        Optional[str],  # noqa: UP045 - typer evaluates this annotation on Python 3.10 too
        typer.Argument(
            help="file.py, file.py:obj, pkg.module:obj or file.py:factory. "
            "Default: [tool.mcpdeps] serve in pyproject.toml, else server.py/main.py/app.py.",
            show_default=False,
        ),
    ] = None,
    transport: str = typer_option(TRANSPORT),
    host: str = typer_option(HOST),
    port: int = typer_option(PORT),
    path: str = typer_option(HTTP_PATH),
    log_level: str = typer_option(LOG_LEVEL),
    env_file: Annotated[
        Optional[list[Path]],  # noqa: UP045
        typer.Option(metavar="FILE", help="dotenv file to load before importing (repeatable)."),
    ] = None,
    reload: Annotated[
        bool, typer.Option("--reload", help="Restart when source files change (HTTP).")
    ] = False,
    reload_dir: Annotated[
        Optional[list[Path]],  # noqa: UP045
        typer.Option(
            metavar="DIR",
            help="Folder to watch with --reload (repeatable; default: the server's source root). "
            "Caches, virtualenvs and excluded folders below it are not watched.",
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, metavar="N", help="Worker processes (HTTP).")
    ] = 1,
    allow_host: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(help="Extra Host name accepted by DNS-rebinding protection (repeatable)."),
    ] = None,
    max_sessions: Annotated[
        int,
        typer.Option(
            "--max-sessions",
            min=1,
            metavar="N",
            help="Open HTTP sessions kept at once; more are refused (503) until one ends.",
        ),
    ] = DEFAULT_MAX_SESSIONS,
    session_idle_timeout: Annotated[
        float,
        typer.Option(
            "--session-idle-timeout", min=1, metavar="SECONDS", help="Close an HTTP session idle this long."
        ),
    ] = DEFAULT_SESSION_IDLE_TIMEOUT,
    inspector: Annotated[
        bool, typer.Option("--inspector", help="Also start the MCP Inspector web UI.")
    ] = False,
    no_banner: Annotated[bool, typer.Option("--no-banner", help="Do not print the start-up banner.")] = False,
    no_lint: bool = typer_option(replace(NO_LINT, help="Start even if lint finds errors.")),
    python: Optional[Path] = typer_option(PYTHON),  # noqa: UP045
    verbose: bool = typer_option(VERBOSE_SERVING),
) -> None:
    """Serve an MCP server over stdio or streamable HTTP, after linting it."""
    from rich.console import Console

    from .parent_watch import exit_with_parent
    from .terminal import TerminalOutput

    exit_with_parent()  # started by `call --stdio`: end with it
    console = Console(stderr=True)
    kind = _transport(transport)
    _check_options(kind, path, log_level, workers, reload)
    from ...resolver_core.loading import LoadError, parse_spec

    cwd = Path.cwd()
    try:
        parsed = parse_spec(spec, cwd)
    except LoadError as exc:
        raise UserError(str(exc)) from exc
    from ..runner.sdk import interpreter_for

    interpreter = interpreter_for(python, parsed.path, "serve")
    if reload:
        from .env import read_env_file
        from .reload import run_with_reload
        from .watched import reload_plan

        for path_ in env_file or ():
            read_env_file(path_)  # fail now rather than in every restarted child

        plan = reload_plan(reload_dir, parsed.root, parsed.path, env_file or (), cwd)
        raise typer.Exit(run_with_reload(command_line(), plan, TerminalOutput(console)))
    if env_file:
        from .env import load_env_files

        load_env_files(env_file)
    if not no_lint:
        from .render_gate import lint_gate

        if not lint_gate(parsed.path, console):
            raise typer.Exit(1)
    from ..runner.interpreter import explaining_missing
    from .http import HttpOptions
    from .run import ServeRequest, run
    from .served import load_for_serving

    with explaining_missing(interpreter):
        loaded = load_for_serving(parsed) if interpreter.own else None
    code = run(
        ServeRequest(
            loaded=loaded,
            transport=kind,
            http=HttpOptions(
                # what workers import: exactly this object (the runner fills it in once it has loaded it)
                spec=f"{loaded.path}:{loaded.attribute}" if loaded else parsed.text,
                cwd=str(cwd),
                host=plain_host(host),
                port=port,
                path=path,
                log_level=log_level.lower(),
                workers=workers,
                allow_hosts=list(allow_host or ()),
                max_sessions=max_sessions,
                session_idle_timeout=session_idle_timeout,
            ),
            interpreter=interpreter,
            spec=spec,
            inspector=inspector,
            banner=not no_banner,
            argv=command_line(),
            verbose=verbose,
        ),
        TerminalOutput(console),
    )
    raise typer.Exit(code)


def _transport(value: str) -> str:
    try:
        return TRANSPORTS[value.lower()]
    except KeyError:
        raise UserError(f"Unknown transport {value!r}: use stdio or http (streamable-http).") from None


def _check_options(kind: str, path: str, log_level: str, workers: int, reload: bool) -> None:
    """Refuse combinations that cannot work, before anything is imported."""
    if log_level.lower() not in LOG_LEVELS:
        raise UserError(f"Unknown log level {log_level!r}: use one of {', '.join(LOG_LEVELS)}.")
    if not path.startswith("/"):
        raise UserError(f"--path must start with '/', got {path!r}.")
    if kind == "stdio":
        if workers > 1:
            raise UserError(
                "--workers needs --transport http: a stdio server is one process owned by its client."
            )
        if reload:
            raise UserError(
                "--reload needs --transport http: over stdio the client owns the process and its session "
                "would die with every restart. Restart the client instead, or serve over HTTP."
            )
    if reload and workers > 1:
        raise UserError("--reload and --workers cannot be combined; reload with one worker while developing.")
