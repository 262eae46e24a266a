"""A `serve` started by `mcpdeps call --stdio` ends when that call ends, however it ends.

The SDK's stdio client starts the server in a session of its own (`start_new_session`), so
the Ctrl-C of the terminal never reaches it, and a call interrupted (or killed) while a
tool runs in a worker thread leaves it running, orphaned, until the tool returns. `call`
names itself in `EXIT_WITH_PARENT_ENV`; the server then watches its parent and, once it is
gone (the server was re-parented), stops its whole process group (a server run under the
project's interpreter included).
"""

from __future__ import annotations

import os
import signal
import threading
import time

EXIT_WITH_PARENT_ENV = "MCPDEPS_EXIT_WITH_PARENT"
POLL_SECONDS = 0.25


def exit_with_parent() -> None:
    """Start the watch when `call` asked for it (the variable holds the parent's pid)."""
    raw = os.environ.pop(EXIT_WITH_PARENT_ENV, "")
    if not raw.isdigit():
        return
    parent = int(raw)
    if os.getppid() != parent:
        _stop()
    threading.Thread(target=_watch, args=(parent,), name="mcpdeps-parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    _stop()


def _stop() -> None:
    """Stop this process and its group: the caller is gone, nobody can read the answers."""
    try:
        if os.getpgrp() == os.getpid():  # our own group (the SDK's new session): take it all down
            os.killpg(os.getpgrp(), signal.SIGTERM)
    finally:
        os._exit(0)
