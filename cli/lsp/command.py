"""`mcpdeps lsp`: a language server over standard input and output.

Thin: logging to stderr, standard output kept for the protocol alone, then
`server.create_server(...).start_io()`. pygls is imported inside the command, so
the other commands never load it.
"""

from __future__ import annotations

from dataclasses import replace

import typer

from ..shared_options import VERBOSE
from ..typer_options import typer_option


def lsp(
    stdio: bool = typer.Option(
        True, "--stdio", help="Speak LSP over standard input/output (the default; editors pass it)."
    ),
    log_file: str = typer.Option(None, "--log-file", help="Write the server's log here (default: stderr)."),
    verbose: bool = typer_option(replace(VERBOSE, help="Log every message and check.")),
) -> None:
    """Run the language server: lint diagnostics as you type, graph hovers, go to resolver, fixes."""
    import logging
    import sys

    from ... import __version__
    from .server import create_server
    from .stream import BoundedInput

    handler = logging.FileHandler(log_file) if log_file else logging.StreamHandler(sys.stderr)
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        handlers=[handler],
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        force=True,
    )
    logging.getLogger("pygls").setLevel(logging.WARNING)  # -v is about mcpdeps, not every message
    # Standard output carries the protocol and nothing else: anything printed goes to stderr.
    protocol_out = sys.stdout.buffer
    sys.stdout = sys.stderr
    _stop_on_ctrl_c()
    if sys.stdin.isatty():
        sys.stderr.write(
            "mcpdeps lsp: waiting for an editor to speak LSP on standard input; "
            "configure your editor to start `mcpdeps lsp` (README: In your editor). Ctrl+C stops it.\n"
        )
        sys.stderr.flush()
    server = create_server(__version__)
    server.start_io(BoundedInput(sys.stdin.buffer), protocol_out)  # type: ignore[arg-type]
    if server.exiting and server.exit_code:
        raise SystemExit(server.exit_code)


def _stop_on_ctrl_c() -> None:
    """Ctrl+C ends the server at once with 130, as every command does.

    pygls reads standard input in a thread of its own: once a line has been read (anything
    typed in a terminal), the main thread's KeyboardInterrupt leaves that thread blocked in
    `read`, the first Ctrl+C seems ignored and a second aborts the interpreter at shutdown
    ("_enter_buffered_busy", exit 134). Nothing is left to save (files are written whole,
    atomically), so the process ends here, without the shutdown that would wait for it.
    """
    import os
    import signal

    def stop(signum: int, frame: object) -> None:
        os._exit(130)

    signal.signal(signal.SIGINT, stop)
