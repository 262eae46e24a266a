"""Reading the file to edit exactly as it is, and writing atomically.

Text is decoded without newline translation (CRLF stays CRLF) and a UTF-8 byte-order mark is
kept. Writes go through the one writer, `lint_rules.fixes.atomic_write.replace_file`: atomic,
keeping the file's metadata, and refused if the file is no longer the one read (a save in
the editor meanwhile is never overwritten).
"""

from __future__ import annotations

from pathlib import Path

from ...lint_rules.fixes.atomic_write import ChangedOnDisk, Original, replace_file
from ...resolver_core import file_guard
from ...resolver_core.records import record
from ..errors import UserError

_BOM = "\ufeff"


@record(slots=False)
class SourceFile:
    """A module's text as read, and how to write it back the same way."""

    path: Path  # as named: `file_guard` refuses to write through a link
    text: str
    bom: bool

    @property
    def raw(self) -> bytes:
        """The bytes read (the text was decoded strictly, so this is exact)."""
        return ((_BOM if self.bom else "") + self.text).encode("utf-8")


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


def write_atomic(path: Path, text: str, *, expected: bytes | None, bom: bool = False) -> None:
    """Replace `path` with `text` in one step if it still holds `expected` (the bytes the edit
    was computed from; None: create it, if nobody did meanwhile), keeping its metadata.
    `ChangedOnDisk` (an OSError) when the file is no longer what was read."""
    data = ((_BOM if bom else "") + text).encode("utf-8")
    path, st = file_guard.check_replaceable(path, file_guard.project_of(path, Path.cwd()), str(path))
    original = None
    if expected is not None:
        if st is None:
            raise ChangedOnDisk(str(path))
        original = Original.read(path, str(path))
        if original.data != expected:
            raise ChangedOnDisk(str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    file_guard.check_folder_writable(path.parent, str(path.parent))
    replace_file(path, data, original, str(path), ".mcpdeps-tmp")


def write_or_explain(source: SourceFile, text: str) -> None:
    """`write_atomic` over the file `source` was read from, with a failure turned into a
    sentence (nothing half-written)."""
    path = source.path
    try:
        write_atomic(path, text, expected=source.raw, bom=source.bom)
    except ChangedOnDisk as exc:
        raise UserError(f"{path} changed while mcpdeps was working on it; run the command again.") from exc
    except file_guard.Refused as exc:
        raise UserError(f"{exc}. The file was left as it was.") from exc
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}. The file was left as it was.") from exc
