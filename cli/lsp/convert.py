"""mcpdeps' diagnostics and spans in the Language Server Protocol's terms.

mcpdeps counts lines and columns from 1 in characters, end exclusive (the lint JSON
contract); LSP counts from 0 in the code units the client negotiated (UTF-16 unless it
asked for UTF-8 or UTF-32), so columns are converted with each file's text. The lint
message, code, severity and related places go over unchanged; `data` carries the rule's
name and tool, so a client sees everything `lint --format json` says.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import PositionCodec

from ...lint_rules.docs import rule_url
from ...resolver_core.diagnostics import Diagnostic, Edit
from ...resolver_core.model import Span

SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}
SOURCE = "mcpdeps"

Lines = Callable[[str], Sequence[str]]
"""A file's lines by display path (the editor's text when it is open)."""


def uri_of(path: Path) -> str:
    return from_fs_path(str(path)) or path.as_uri()


def path_of(uri: str) -> Path | None:
    """The file a `file:` URI names (None for other schemes: untitled buffers, git views)."""
    fs = to_fs_path(uri) if uri.startswith("file:") else None
    return Path(fs).absolute() if fs else None


class Positions:
    """Converts between mcpdeps' 1-based character columns and the client's code units."""

    def __init__(self, codec: PositionCodec, lines: Lines) -> None:
        self.codec = codec
        self.lines = lines

    def position(self, path: str, line: int, column: int) -> types.Position:
        lines = self.lines(path)
        zero = types.Position(line=max(line - 1, 0), character=max(column - 1, 0))
        if zero.line >= len(lines):
            return zero
        return self.codec.position_to_client_units(lines, zero)

    def range(self, path: str, line: int, column: int, end_line: int, end_column: int) -> types.Range:
        return types.Range(
            start=self.position(path, line, column), end=self.position(path, end_line, end_column)
        )

    def span(self, span: Span) -> types.Range:
        return self.range(span.path, span.line, span.column, span.end_line, span.end_column)

    def from_client(self, path: str, position: types.Position) -> tuple[int, int]:
        """A client position as mcpdeps' (line, column), both 1-based."""
        lines = self.lines(path)
        if position.line >= len(lines):
            return position.line + 1, position.character + 1
        server = self.codec.position_from_client_units(lines, position)
        return server.line + 1, server.character + 1

    def text_edit(self, edit: Edit) -> types.TextEdit:
        return types.TextEdit(
            range=self.range(edit.path, edit.line, edit.column, edit.end_line, edit.end_column),
            new_text=edit.content,
        )


def to_lsp(d: Diagnostic, positions: Positions, root: Path) -> types.Diagnostic:
    """One lint diagnostic as LSP publishes it (ranges in the client's units)."""
    return types.Diagnostic(
        range=positions.range(d.path, d.line, d.column, d.end_line, d.end_column),
        message=d.message,
        severity=SEVERITY[d.severity],
        code=d.code,
        code_description=types.CodeDescription(href=rule_url(d.code)),
        source=SOURCE,
        related_information=[
            types.DiagnosticRelatedInformation(
                location=types.Location(
                    uri=uri_of(root / r.path),
                    range=positions.range(r.path, r.line, r.column, r.line, r.column),
                ),
                message=r.message,
            )
            for r in d.related
        ]
        or None,
        data={"name": d.name, "tool": d.tool},
    )
