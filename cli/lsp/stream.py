"""The language server's input, bounded: what a client announces is not believed blindly.

pygls reads a message's body with one `read(Content-Length)`, so `Content-Length:
99999999999` made it allocate that much and die of MemoryError. A body larger than
`MAX_MESSAGE_BYTES` (far above the largest file `lint` analyses) is read in chunks and
dropped, with a sentence in the log; a client that then goes away ends the server as usual.
"""

from __future__ import annotations

import logging
from typing import BinaryIO

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 64 * 1024 * 1024
MAX_HEADER_BYTES = 64 * 1024
_SKIPPED = b'{"jsonrpc": "2.0", "method": "$/mcpdeps/skipped"}'
"""What pygls is given for a dropped body: a notification servers ignore (`$/` prefix)."""


class BoundedInput:
    """A binary stream with pygls' two calls, `readline()` and `read(n)`, bounded."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw

    def readline(self) -> bytes:
        return self.raw.readline(MAX_HEADER_BYTES)

    def read(self, n: int) -> bytes:
        if n <= MAX_MESSAGE_BYTES:
            return self.raw.read(n)
        log.error(
            "a message announced Content-Length: %d, larger than the %d MiB a message may have; it was skipped",
            n,
            MAX_MESSAGE_BYTES // (1024 * 1024),
        )
        left = n
        while left > 0:
            chunk = self.raw.read(min(left, 1 << 20))
            if not chunk:
                return b""  # the client went away in the middle: the server ends
            left -= len(chunk)
        return _SKIPPED
