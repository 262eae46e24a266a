"""One bounded reader for every file a user names (`--answers`, `--args-json @file`,
`--env-file`, the lint cache's state files).

A name can point at anything: a FIFO nobody writes to (the read would block forever),
`/dev/zero` or `/dev/urandom` (it would never end), a multi-gigabyte log, bytes that are
not UTF-8, JSON nested a hundred thousand levels deep (Python's parser recurses). Each of
these becomes `Unreadable` with one sentence, before anything large is allocated:

- the file is opened without blocking (`O_NONBLOCK`: opening a FIFO does not wait for a
  writer) and must be a regular file (`fstat` of what was opened, so a swap after a check
  cannot fool it);
- at most `limit` bytes are read, and a file that is (or grows) larger is refused;
- text must decode, JSON must parse and be at most `MAX_DEPTH` levels deep.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from .patterns import compiled_when_used

MAX_BYTES = 10 * 1024 * 1024
"""Default limit: no answers, arguments or env file a person writes comes near it."""
MAX_DEPTH = 64
"""JSON nesting accepted: far beyond any real answer, well below Python's recursion limit."""


class Unreadable(ValueError):
    """A named file (or value) cannot be used; the message is one sentence naming it and why."""

    def sentence(self) -> str:
        """The message as a sentence of its own (capitalised, with a full stop)."""
        text = str(self)
        return f"{text[:1].upper()}{text[1:]}."


def read_bytes(path: Path, what: str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file `path` (`what` names it in messages: "the answers file x")."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError as exc:
        raise Unreadable(f"{what} does not exist") from exc
    except IsADirectoryError as exc:
        raise Unreadable(f"{what} is a directory, not a file") from exc
    except OSError as exc:
        raise Unreadable(f"cannot read {what}: {exc.strerror or exc}") from exc
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise Unreadable(f"{what} is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise Unreadable(f"{what} is not a regular file (a pipe, socket or device): give a file")
        if st.st_size > limit:
            raise Unreadable(f"{what} is too large ({_size(st.st_size)}; the limit is {_size(limit)})")
        os.set_blocking(fd, True)
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise Unreadable(f"{what} is too large (it grew past {_size(limit)} while being read)")
        return b"".join(chunks)
    except OSError as exc:
        raise Unreadable(f"cannot read {what}: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)


def read_text(path: Path, what: str, limit: int = MAX_BYTES) -> str:
    """`read_bytes`, decoded as UTF-8 (a byte-order mark is dropped)."""
    return decode_text(read_bytes(path, what, limit), what)


def decode_text(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"{what} is not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x})") from exc


def read_json(path: Path, what: str, limit: int = MAX_BYTES) -> Any:
    """`read_text`, parsed as JSON of at most `MAX_DEPTH` levels."""
    return parse_json(read_text(path, what, limit), what)


def parse_json(text: str, what: str, max_depth: int = MAX_DEPTH) -> Any:
    """JSON text (from a file or a command-line option) parsed, its nesting bounded."""
    if _depth(text) > max_depth:
        raise Unreadable(f"{what} is nested more than {max_depth} levels deep")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise Unreadable(
            f"{what} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from exc
    except RecursionError as exc:  # pragma: no cover - `_depth` refuses these first
        raise Unreadable(f"{what} is nested too deeply") from exc


_STRING = compiled_when_used(r'"(?:[^"\\]|\\.)*"')
_BRACKET = compiled_when_used(r"[\[\]{}]")


def _depth(text: str) -> int:
    """The deepest bracket nesting outside strings (no parse, no recursion)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0  # cannot be deeper than its brackets
    depth = deepest = 0
    for bracket in _BRACKET().findall(_STRING().sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.0f} MiB" if n >= 1024 * 1024 else f"{n} bytes"
