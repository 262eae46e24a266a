"""Reading the file to edit exactly as it is, and writing atomically.

Text is decoded without newline translation (CRLF stays CRLF) and a UTF-8 byte-order mark is
kept. A write goes to a temporary file in the same folder, is flushed to disk, takes the old
file's permission bits, and replaces the target with `os.replace`: a crash or a full disk
leaves either the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ...lint_rules.fixes.atomic_write import replace_file
from ...resolver_core import file_guard
from ..errors import UserError

_BOM = "\ufeff"


@dataclass(frozen=True)
class SourceFile:
    """A module's text as read, and how to write it back the same way."""

    path: Path  # as named: `file_guard` refuses to write through a link
    text: str
    bom: bool


def read_source(path: Path) -> SourceFile:
    """Read a Python file for editing; say why in a sentence when that is impossible."""
    if not path.exists():
        raise UserError(f"{path} does not exist; `--in` names the module to add to.")
    if not path.is_file():
        raise UserError(f"{path} is not a file; `--in` names the module to add to.")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}.") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(
            f"{path} is not UTF-8 text (byte {exc.start}); mcpdeps only edits UTF-8 files."
        ) from exc
    bom = text.startswith(_BOM)
    return SourceFile(path, text[1:] if bom else text, bom)


def _default_mode() -> int:
    """0o666 minus the umask: what `open(path, "w")` would have given a new file."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomic(path: Path, text: str, *, bom: bool = False) -> None:
    """Replace (or create) `path` with `text` in one step, keeping an existing file's mode."""
    data = ((_BOM if bom else "") + text).encode("utf-8")
    path, st = file_guard.check_replaceable(path, file_guard.project_of(path, Path.cwd()), str(path))
    if st is not None:
        mode, owner = stat.S_IMODE(st.st_mode), (st.st_uid, st.st_gid)
    else:
        mode, owner = _default_mode(), None
    path.parent.mkdir(parents=True, exist_ok=True)
    file_guard.check_folder_writable(path.parent, str(path.parent))
    replace_file(path, data, mode, owner, ".mcpdeps-tmp")


def write_or_explain(path: Path, text: str, *, bom: bool = False) -> None:
    """`write_atomic`, with an OS failure turned into a sentence (nothing half-written)."""
    try:
        write_atomic(path, text, bom=bom)
    except file_guard.Refused as exc:
        raise UserError(f"{exc}. The file was left as it was.") from exc
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}. The file was left as it was.") from exc
