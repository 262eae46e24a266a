"""One log style for everything `serve` prints: mcpdeps, uvicorn and the SDK, like `fastapi dev`.

Without this, uvicorn's own `INFO:     ...` lines interleave with the SDK's rich log
handler (`MCPServer()` installs one on the root logger: time, level, message and
`file.py:162` in columns), which at 60 columns prints one character per line. Here every
record goes through the root logger to one stream handler on stderr: the level right-aligned
in a fixed gutter (coloured on a terminal, plain otherwise or with NO_COLOR), then the message,
which the terminal wraps like any text. uvicorn is told not to configure logging itself
(`LOG_CONFIG`), so its records propagate to the same handler.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

LOG_CONFIG = None
"""What `uvicorn.Config(log_config=...)` gets: None keeps uvicorn from installing its handlers."""

_COLOURS = {
    "DEBUG": "\x1b[34m",
    "INFO": "\x1b[32m",
    "WARNING": "\x1b[33m",
    "ERROR": "\x1b[31m",
    "CRITICAL": "\x1b[1;31m",
}


class LevelGutterFormatter(logging.Formatter):
    """`    INFO  Started server process [123]`: the level in an 8-column gutter, then the message."""

    def __init__(self, colour: bool) -> None:
        super().__init__()
        self.colour = colour

    def format(self, record: logging.LogRecord) -> str:
        level = f"{record.levelname:>8}"
        if self.colour and record.levelname in _COLOURS:
            level = f"{_COLOURS[record.levelname]}{level}\x1b[0m"
        text = f"{level}  {record.getMessage()}"
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text


def _wants_colour(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return stream.isatty() and os.environ.get("TERM") != "dumb"


def install(level: str, stream: TextIO | None = None) -> None:
    """Route every logger (the SDK's, uvicorn's, the user's) to one handler in the gutter style."""
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    handler.setFormatter(LevelGutterFormatter(_wants_colour(stream)))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi"):
        logger = logging.getLogger(name)
        for old in list(logger.handlers):
            logger.removeHandler(old)
        logger.propagate = True
