"""stdio for `mcpdeps serve`: the SDK's own transport, but Ctrl+C (or SIGTERM) ends it at once.

Why this exists: the SDK reads stdin with a blocking `readline` in a worker thread. A
cancellation cannot reach that thread, so on Ctrl+C the process waits for one more line
from the terminal (or the client) and a second Ctrl+C ends in a traceback; `mcp.run()` has
the same trap. Here the SDK reads a pipe we own instead of fd 0: a daemon thread copies
the real stdin into it, and a stop signal closes the pipe. The SDK's reader then sees end of
input, exactly as if the client had hung up (Ctrl+D), and the server shuts down through its
normal path (lifespan cleanup included) while the thread blocked on the terminal is left to
die with the process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp.server import MCPServer

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StdinPipe:
    """fd 0 replaced by the read end of a pipe that a daemon thread fills from the real stdin."""

    def __init__(self) -> None:
        self.source = os.dup(0)
        read_end, self.write_end = os.pipe()
        os.dup2(read_end, 0)
        os.close(read_end)
        self._ended = threading.Event()
        threading.Thread(target=self._pump, name="mcpdeps-stdin", daemon=True).start()

    def _pump(self) -> None:
        while not self._ended.is_set():
            try:
                data = os.read(self.source, 65536)
            except OSError:
                break
            if not data:
                break
            try:
                while data and not self._ended.is_set():
                    data = data[os.write(self.write_end, data) :]
            except OSError:
                break
        self.end()

    def end(self) -> None:
        """End of input for the SDK's reader (idempotent).

        The write end is replaced by /dev/null rather than closed, so the pump can never
        write into a file descriptor number that something else has reused meanwhile.
        """
        if self._ended.is_set():
            return
        self._ended.set()
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, self.write_end)
        finally:
            os.close(null)

    def restore(self) -> None:
        """Give fd 0 back (the pump may still block on `source`, which therefore stays open)."""
        self.end()
        os.dup2(self.source, 0)


@contextlib.contextmanager
def owned_stdin() -> Iterator[StdinPipe | None]:
    """The pipe while serving (None where there is no fd 0 to replace, or on Windows)."""
    if sys.platform == "win32":
        yield None
        return
    try:
        pipe = StdinPipe()
    except OSError:  # stdin closed: the SDK sees end of input at once anyway
        yield None
        return
    try:
        yield pipe
    finally:
        pipe.restore()


def serve_stdio(server: MCPServer) -> int | None:
    """Run the SDK's stdio transport; the stop signal that ended it (None: the client hung up)."""
    import anyio

    with owned_stdin() as pipe:
        return anyio.run(_serve, server, pipe)


async def _serve(server: MCPServer, pipe: StdinPipe | None) -> int | None:
    import anyio

    stopped: list[int] = []
    async with anyio.create_task_group() as tasks:

        async def watch() -> None:
            with anyio.open_signal_receiver(*STOP_SIGNALS) as signals:
                async for signum in signals:
                    stopped.append(signum)
                    if pipe is not None:
                        pipe.end()
                    tasks.cancel_scope.cancel()
                    return

        tasks.start_soon(watch)
        await server.run_stdio_async()
        tasks.cancel_scope.cancel()
    return stopped[0] if stopped else None
