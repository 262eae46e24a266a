"""Load the server for an in-process call, the way `serve` does, after the command's lint gate.

Shares `resolver_core.loading` (spec syntax, real module names) with `serve`, and the
command runs `serve`'s lint gate first (`serve/render_gate.py`), so `call` and `serve`
accept and refuse exactly the same servers. Nothing here prints: the one message,
on Ctrl-C, is handed to the caller's `say`.
"""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from ..errors import UserError

if TYPE_CHECKING:
    from mcp.server import MCPServer


def load_in_process(spec: str, *, verbose: bool = False) -> MCPServer:
    """The imported `MCPServer`; exit 1 when the SDK's registration refuses it, 2 otherwise."""
    from mcp.server.mcpserver.exceptions import InvalidSignature

    from ...resolver_core.loading import LoadError, load_spec, parse_spec

    try:
        server = load_spec(parse_spec(spec, Path.cwd())).server
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
    from ...resolver_core.loading import LoadError, parse_spec

    try:
        return parse_spec(spec, Path.cwd()).path
    except LoadError as exc:
        raise UserError(str(exc)) from exc


@contextmanager
def exit_on_interrupt(say: Callable[[str], object]) -> Iterator[None]:
    """Ctrl-C ends the call at once, even in the middle of a question.

    A question is answered inside the SDK's dispatch of a server request, where a
    cancellation does not reach a terminal read blocked in a worker thread, so the
    usual KeyboardInterrupt would wait for Enter. Installed before the event loop
    starts, this handler also keeps asyncio from installing its own. `say` tells the user
    (a terminal's `Console.print`) before the process ends.
    """

    def interrupted(signum: int, frame: FrameType | None) -> None:
        say("\nmcpdeps: interrupted")
        os._exit(130)

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
