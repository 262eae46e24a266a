"""While a user's code runs in mcpdeps' process, what it prints goes to stderr.

stdout is mcpdeps' channel: the JSON-RPC frames of `serve` over stdio, the one JSON
document of `call --json`, the graph `graph --live` prints. A `print()` at import or in a
tool (common in servers: "loading model...") put its line before the first frame, where
the client reads it as a broken message, or in the middle of the JSON. So for as long as
user code runs, stdout is stderr, at both levels: `sys.stdout` (Python's `print`) and file
descriptor 1 (C extensions and subprocesses the code starts write there).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator


@contextlib.contextmanager
def user_output_to_stderr() -> Iterator[None]:
    """Within the block, stdout is stderr (Python's and file descriptor 1); restored after."""
    _flush(sys.stdout)
    try:
        saved: int | None = os.dup(1)
        os.dup2(2, 1)
    except OSError:  # no fd 1 or 2 to move: Python's level is still redirected
        saved = None
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        _flush(sys.__stdout__)  # what a kept reference to the real stdout buffered meanwhile
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


def _flush(stream: object) -> None:
    with contextlib.suppress(Exception):
        stream.flush()  # type: ignore[attr-defined]
