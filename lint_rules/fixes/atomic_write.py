"""Writing files mcpdeps changes: all or nothing, faithful to the file, and never over someone else's save.

`lint --fix`, the agent's `fix` and `mcpdeps new` all write through `replace_file`:

- a file is replaced through a temporary file in the same folder (readers never see half a
  file), flushed to disk, given the old file's owner, mode and extended attributes (ACLs
  included, `file_metadata`) and its encoding (PEP 263 cookie or BOM) and line endings;
- which files may be replaced at all is `resolver_core.file_guard`'s decision (regular files
  inside the project, never through a link, only what the user could write);
- a save is never lost. The writer compares the file with what the change was computed
  from, and again at the last moment, after the slow fsync (identity, size, times and
  bytes): a save there is a `ChangedOnDisk`, and the file is left as the user saved it.
  Where names can be swapped atomically (`renames.exchange`) the old file is not unlinked
  by the replacement but moved aside, looked at once more and deleted only if it still is
  what was read; otherwise it is swapped back. A file `new` creates is created only if the
  name is still free.
"""

from __future__ import annotations

import io
import os
import stat
import tempfile
import tokenize
from pathlib import Path

from ...resolver_core import file_guard
from ...resolver_core.records import record
from ...resolver_core.source import decode
from ..held_interrupts import ctrl_c_held
from . import renames
from .file_metadata import Metadata, give


class ChangedOnDisk(OSError):
    """A file changed (or appeared, or went) between the read a change was computed from and the write."""

    def __init__(self, display: str) -> None:
        super().__init__(f"{display} changed on disk since mcpdeps read it")


_Stamp = tuple[int, int, int, int]
"""(device, inode, size, modification time in ns): which file a name holds, and whether it was written."""


def _stamp(st: os.stat_result) -> _Stamp:
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


@record
class Original:
    """A file as read before it is replaced: what it must still be at the last moment."""

    data: bytes
    stamp: _Stamp
    metadata: Metadata

    @classmethod
    def read(cls, path: Path, display: str) -> Original:
        """Read `path` (never through a link); ChangedOnDisk if it is gone."""
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except FileNotFoundError as exc:
            raise ChangedOnDisk(display) from exc
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise ChangedOnDisk(display)
            return cls(f.read(), _stamp(st), Metadata.of(fd, st))

    def still_at(self, path: Path) -> bool:
        """Whether `path` names this very file, unwritten since it was read."""
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            return False
        with os.fdopen(fd, "rb") as f:
            return _stamp(os.fstat(fd)) == self.stamp and f.read(len(self.data) + 1) == self.data


def write_atomic(path: Path, expected: str, text: str, root: Path, display: str) -> None:
    """Replace a file's text in one step; raise ChangedOnDisk if it no longer holds `expected`,
    `file_guard.Refused` if mcpdeps may not replace it (`root`: the project it must be inside)."""
    path, st = file_guard.check_replaceable(path, root, display)
    if st is None:
        raise ChangedOnDisk(display)  # deleted since it was read: never recreated
    file_guard.check_folder_writable(path.parent, str(Path(display).parent))
    original = Original.read(path, display)
    if decode(original.data) != expected:
        raise ChangedOnDisk(display)
    encoding, _ = tokenize.detect_encoding(io.BytesIO(original.data).readline)
    payload = text.encode(encoding)  # "utf-8-sig" when the file had a BOM: it is written back
    replace_file(path, payload, original, display, ".mcpdeps-fix")


def default_mode() -> int:
    """0o666 minus the umask: what `open(path, "w")` would have given a new file."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def replace_file(target: Path, data: bytes, original: Original | None, display: str, suffix: str) -> None:
    """Write `data` to a temporary file beside `target`, flush it to disk, give it the
    original's metadata and put it in `target`'s place, if `target` is still `original`
    (None: if `target` still does not exist). On any failure the temporary file is removed
    and `target` is as it was: `ChangedOnDisk` for a save caught at the last moment,
    `file_guard.Refused` for metadata that cannot be kept."""
    tmp: Path | None = None
    ours: tuple[int, int] | None = None
    try:
        with ctrl_c_held():  # a Ctrl+C comes out of the `with`, once `tmp` is known here
            fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=suffix)
            tmp = Path(name)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
            if original is None:
                os.fchmod(out.fileno(), default_mode())
            else:
                give(out.fileno(), original.metadata, display)
            ours = _stamp(os.fstat(out.fileno()))[:2]
        # Held: between a swap and the unlink of what it displaced, a Ctrl+C would leave the
        # original's bytes behind under the temporary name, no longer ours to remove.
        with ctrl_c_held():
            if original is None:
                try:
                    renames.create(tmp, target)
                except FileExistsError as exc:
                    raise ChangedOnDisk(display) from exc
            else:
                _put_in_place(tmp, target, original, display)
            tmp = None
    finally:
        if tmp is not None:
            with ctrl_c_held():
                _remove_if_ours(tmp, ours)


def _remove_if_ours(tmp: Path, ours: tuple[int, int] | None) -> None:
    """Delete the temporary file, unless a swap left someone else's file under its name."""
    try:
        if ours is None or _stamp(os.lstat(tmp))[:2] == ours:
            tmp.unlink()
    except FileNotFoundError:
        pass


def _put_in_place(tmp: Path, target: Path, original: Original, display: str) -> None:
    """The last look and the rename; `tmp` is consumed unless an exception says otherwise."""
    if not original.still_at(target):
        raise ChangedOnDisk(display)
    if not renames.exchange(tmp, target):
        os.replace(tmp, target)
        return
    if original.still_at(tmp):  # what was displaced is what was read: nothing else was lost
        tmp.unlink()
        return
    renames.exchange(tmp, target)  # a save landed in between: it goes back where it was
    raise ChangedOnDisk(display)  # (if yet another save came, `tmp` is not ours and is kept)
