"""Writing fixed files: all or nothing, faithful to the file, and never over someone else's save.

A file is replaced through a temporary file in the same folder and `os.replace`
(readers never see half a file), keeping its mode, owner, encoding (PEP 263 cookie
or BOM) and, since the text is written as is, its line endings. Which files may be
replaced at all is `resolver_core.file_guard`'s decision (regular files inside the
project, never through a link, only what the user could write). The write is refused
when the file no longer holds the text the fixes were computed from (an editor saved
it meanwhile).
"""

from __future__ import annotations

import io
import os
import stat
import tempfile
import tokenize
from pathlib import Path

from ...resolver_core import file_guard
from ...resolver_core.source import decode
from ..held_interrupts import ctrl_c_held


class ChangedOnDisk(Exception):
    """A file changed between the lint that planned a fix and the write."""


def write_atomic(path: Path, expected: str, text: str, root: Path, display: str) -> None:
    """Replace a file's text in one step; raise ChangedOnDisk if it no longer holds `expected`,
    `file_guard.Refused` if mcpdeps may not replace it (`root`: the project it must be inside)."""
    path, st = file_guard.check_replaceable(path, root, display)
    if st is None:
        raise ChangedOnDisk(path)  # deleted since it was read: never recreated
    file_guard.check_folder_writable(path.parent, str(Path(display).parent))
    data = path.read_bytes()
    if decode(data) != expected:
        raise ChangedOnDisk(path)
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    payload = text.encode(encoding)  # "utf-8-sig" when the file had a BOM: it is written back
    replace_file(path, payload, stat.S_IMODE(st.st_mode), (st.st_uid, st.st_gid), ".mcpdeps-fix")


def replace_file(target: Path, data: bytes, mode: int, owner: tuple[int, int] | None, suffix: str) -> None:
    """Write `data` to a temporary file beside `target`, flush it to disk, give it `mode` (and
    `owner`, when that is not us: root editing a user's file in a container or a CI job must
    not leave it owned by root) and move it over `target`. On any failure the temporary file
    is removed and `target` is untouched."""
    tmp: str | None = None
    try:
        with ctrl_c_held():  # a Ctrl+C comes out of the `with`, once `tmp` is known here
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=suffix)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        if owner is not None and owner != (os.getuid(), os.getgid()):
            os.chown(tmp, *owner)  # cannot keep the owner: no replacement (the guard checked first)
        os.replace(tmp, target)
    except BaseException:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise
