"""The two renames a careful writer needs that `os` does not offer: swap two names, and
create a name only if it is free.

Both are one system call on Linux (`renameat2` with `RENAME_EXCHANGE` or
`RENAME_NOREPLACE`), so no save can land between a check and the rename. A swap leaves what
it displaced under the other name, where the writer can still look at it (and swap back):
`os.replace` would have unlinked it. Elsewhere, or on a file system that does not support
them (some network and FUSE file systems), the callers fall back to `os.replace` and
`os.link`.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path

_AT_FDCWD = -100
_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2
_UNSUPPORTED = {errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP}


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2  # glibc 2.28+, musl 1.2.4+
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


def _rename(source: Path, target: Path, flags: int) -> bool:
    """`renameat2(source, target, flags)`; False when this system or file system cannot."""
    function = _renameat2()
    if function is None:
        return False
    if function(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target), flags) == 0:
        return True
    err = ctypes.get_errno()
    if err in _UNSUPPORTED:
        return False
    raise OSError(err, os.strerror(err), str(target))


def exchange(a: Path, b: Path) -> bool:
    """Swap the files named `a` and `b` in one step; False if it cannot be done here."""
    return _rename(a, b, _RENAME_EXCHANGE)


def create(source: Path, target: Path) -> None:
    """Move `source` to `target`, which must not exist (FileExistsError if it does, even if
    it appeared a moment ago). A hard link then an unlink where `renameat2` is missing."""
    if _rename(source, target, _RENAME_NOREPLACE):
        return
    os.link(source, target)
    os.unlink(source)
