"""Load the server for an in-process call: lint first, then import, the way `serve` does.

Shares `resolver_core.loading` (spec syntax, real module names) and `serve`'s lint
gate, so `call` and `serve` accept and refuse exactly the same servers.
"""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from mcpdeps.cli.errors import UserError
from rich.console import Console

if TYPE_CHECKING:
    from mcp.server import MCPServer


def load_in_process(spec: str, *, lint: bool, console: Console, verbose: bool = False) -> MCPServer:
    """The imported `MCPServer`; exit 1 when lint or the SDK's registration refuses it, 2 otherwise."""
    from mcp.server.mcpserver.exceptions import InvalidSignature
    from mcpdeps.resolver_core.loading import LoadError, load_spec, parse_spec

    try:
        parsed = parse_spec(spec, Path.cwd())
        if lint:
            from mcpdeps.cli.serve.gate import lint_gate

            if not lint_gate(parsed.path, console, refusal="mcpdeps call: not calling the tool"):
                raise SystemExit(1)  # the gate said why; exit 1 as lint would
        server = load_spec(parsed).server
    except LoadError as exc:
        refused = isinstance(exc.__cause__, InvalidSignature)
        raise UserError(str(exc), exit_code=1 if refused else 2) from exc
    if not verbose:
        # `MCPServer()` configures INFO logging on the root logger; in-process, its
        # "Tool 'x' failed" lines would repeat the result panel on our stderr.
        logging.getLogger().setLevel(logging.WARNING)
    return server


def server_path(spec: str) -> Path:
    """The server's file for `--stdio`, checked before a subprocess is started for nothing."""
    from mcpdeps.resolver_core.loading import LoadError, parse_spec

    try:
        return parse_spec(spec, Path.cwd()).path
    except LoadError as exc:
        raise UserError(str(exc)) from exc


@contextmanager
def exit_on_interrupt(console: Console) -> Iterator[None]:
    """Ctrl-C ends the call at once, even in the middle of a question.

    A question is answered inside the SDK's dispatch of a server request, where a
    cancellation does not reach a terminal read blocked in a worker thread, so the
    usual KeyboardInterrupt would wait for Enter. Installed before the event loop
    starts, this handler also keeps asyncio from installing its own.
    """

    def interrupted(signum: int, frame: FrameType | None) -> None:
        console.print("\nmcpdeps: interrupted")
        os._exit(130)

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
