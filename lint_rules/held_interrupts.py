"""Ctrl+C held back across the few steps it must not cut in two.

Python raises KeyboardInterrupt at whichever instruction runs when the signal is seen, and
two places in a run cannot take it there:
- `tempfile.mkstemp` creates the file before it returns its name: a KeyboardInterrupt in
  between left a temporary file nobody knew of (`fixes/atomic_write.py`);
- `os.fork` runs at-fork hooks (logging's lock, `random`'s reseed): one raised inside a hook
  is printed as "Exception ignored" and lost, so a Ctrl+C while lint started its workers
  did nothing and the run went on to its report (`parallel.py`).
Within `ctrl_c_held()` SIGINT's handler only takes note; at the end the handler of before
is put back and the signal raised again, so the KeyboardInterrupt comes out of the `with`.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def ctrl_c_held() -> Iterator[None]:
    """A Ctrl+C during the block is delivered when the block ends.

    Only the main thread may set handlers, and only there is KeyboardInterrupt raised, so on
    the others nothing changes. Once the noting handler is set no Ctrl+C can interrupt; before
    that, none has been missed. A SIGINT ignored before stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    noted: list[int] = []
    signal.signal(signal.SIGINT, lambda number, frame: noted.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if noted and previous is not signal.SIG_IGN:
            signal.raise_signal(signal.SIGINT)
