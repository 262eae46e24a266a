"""Writing fixed files: all or nothing, faithful to the file, and never over someone else's save.

A file is replaced through a temporary file in the same folder and `os.replace`
(readers never see half a file), keeping its mode, its encoding (PEP 263 cookie
or BOM) and, since the text is written as is, its line endings. Symlinks are
followed, so the link stays a link. The write is refused when the file no
longer holds the text the fixes were computed from (an editor saved it meanwhile).
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import tempfile
import tokenize
from pathlib import Path

from resolver_core.source import decode


class ChangedOnDisk(Exception):
    """A file changed between the lint that planned a fix and the write."""


def write_atomic(path: Path, expected: str, text: str) -> None:
    """Replace a file's text in one step; raise ChangedOnDisk if it no longer holds `expected`."""
    target = path.resolve()
    data = target.read_bytes()
    if decode(data) != expected:
        raise ChangedOnDisk(path)
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    payload = text.encode(encoding)  # "utf-8-sig" when the file had a BOM: it is written back
    st = target.stat()
    mode = stat.S_IMODE(st.st_mode)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".mcpdeps-fix")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        if (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
            # Root fixing a user's file (a container, a CI job) must not leave it owned by root.
            with contextlib.suppress(OSError):
                os.chown(tmp, st.st_uid, st.st_gid)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
