"""Reading and parsing one Python file without ever executing it.

Analysis uses the standard library's `ast` (about ten times faster than libcst,
which is kept for the places that rewrite code: `--fix` and `new`). Every way a
file can be unreadable becomes a `Finding` (`unreadable`) instead of an exception,
so one bad file never stops a run.
"""

from __future__ import annotations

import ast
import contextvars
import gc
import io
import os
import stat
import sys
import tokenize
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from . import modern_syntax, parse_budget
from .cache import MAX_BYTES, bytes_hash, oversized
from .lines import has_other_breaks, split_lines
from .model import Finding, Span
from .records import slotted

if TYPE_CHECKING:
    from .lent_parses import LentParses


@slotted
class ParsedModule:
    """A module as the analyzer sees it: its name, text and tree (or why there is none)."""

    name: str
    path: Path
    display: str
    root: Path
    is_package: bool
    text: str | None = None
    tree: ast.Module | None = None
    error: Finding | None = None
    future_annotations: bool = False
    digest: str | None = None
    """The content hash of the bytes the text was decoded from (None: not read from disk)."""
    type_params: frozenset[str] = frozenset()
    """Names the module declares as PEP 695 type parameters (`def first[T]`): type variables
    wherever an annotation names them (`modern_syntax`)."""
    lines: list[str] = field(default_factory=list, repr=False)
    _other_breaks: bool | None = field(default=None, repr=False)

    def forget(self) -> None:
        """Drop what was read from the text: an editor's new text is parsed into the same object
        (importers found it by name), and nothing of the old text may answer for it."""
        self.text, self.tree, self.error, self.lines = None, None, None, []
        self.future_annotations, self.digest, self.type_params = False, None, frozenset()
        self._other_breaks = None

    def other_breaks(self) -> bool:
        """Whether the text holds a line separator only `str.splitlines` knows
        (`lines.has_other_breaks`). Read once: the call-site walk asks again for every batch
        of names it looks for, and each search is a pass over the whole text."""
        if self._other_breaks is None:
            self._other_breaks = has_other_breaks(self.text or "")
        return self._other_breaks

    @property
    def package(self) -> str:
        """The package relative imports are resolved against."""
        return self.name if self.is_package else self.name.rpartition(".")[0]

    def span(self, node: ast.AST) -> Span:
        """A node's span in characters (ast counts UTF-8 bytes; they differ on non-ASCII lines)."""
        span = Span.of(self.display, node)
        if self.text is None or self.text.isascii():
            return span
        if not self.lines:
            self.lines = split_lines(self.text)

        def chars(line: int, column: int) -> int:
            text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
            return column if text.isascii() else len(text.encode()[: column - 1].decode(errors="ignore")) + 1

        return Span(
            span.path,
            span.line,
            chars(span.line, span.column),
            span.end_line,
            chars(span.end_line, span.end_column),
        )

    def segment(self, node: ast.AST) -> str:
        """The source text of a node, whitespace-folded to one line (lines are split once per file)."""
        if self.text is None or not hasattr(node, "lineno") or node.end_lineno is None:  # type: ignore[attr-defined]
            return ast.unparse(node)
        if not self.lines:
            self.lines = split_lines(self.text)
        first, last = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined]
        if last >= len(self.lines):
            return ast.unparse(node)
        if first == last and self.lines[first].isascii():  # most nodes: columns are characters
            raw = self.lines[first][node.col_offset : node.end_col_offset]  # type: ignore[attr-defined]
            return " ".join(raw.split())
        chunk = self.lines[first : last + 1]
        # ast columns are UTF-8 byte offsets.
        if len(chunk) == 1:
            raw = chunk[0].encode()[node.col_offset : node.end_col_offset].decode(errors="replace")  # type: ignore[attr-defined]
        else:
            head = chunk[0].encode()[node.col_offset :].decode(errors="replace")  # type: ignore[attr-defined]
            tail = chunk[-1].encode()[: node.end_col_offset].decode(errors="replace")  # type: ignore[attr-defined]
            raw = "\n".join([head, *chunk[1:-1], tail])
        return " ".join(raw.split())


def decode(data: bytes) -> str:
    """Decode source bytes the way the interpreter does (BOM, PEP 263 cookie, else UTF-8)."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    return text[1:] if text.startswith("\ufeff") else text


def read_text(path: Path, display: str, override: str | None = None) -> tuple[str | None, Finding | None]:
    """Read a file's text; unreadable, undecodable and oversized files become findings."""
    text, error, _ = read_source(path, display, override)
    return text, error


def regular_bytes(path: Path) -> bytes | None:
    """The bytes of a regular file of at most `MAX_BYTES`; None for anything else (a FIFO would
    block the read, a device never end): the loader reports why it cannot be read.

    Opened without blocking and checked with `fstat` of what was opened: one `stat` instead
    of the two `is_file()` and `stat()` made, for every file of a large tree. Read with
    `os.read`, without a buffered file object, asking one byte more than `fstat` said: a read
    that returns exactly the size found the end (the extra byte was not there), so most files
    take one read; one that returns more (the file grew) or less (it shrank, or the read was
    cut short) is read on to the end, as it would be without the size.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return None
        data = os.read(fd, st.st_size + 1)
        if len(data) == st.st_size:
            return data
        more = [data]
        while chunk := os.read(fd, 1 << 16):
            more.append(chunk)
        return data if len(more) == 1 else b"".join(more)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_source(
    path: Path, display: str, override: str | None = None, hashing: bool = True
) -> tuple[str | None, Finding | None, str | None]:
    """`read_text`, plus the content hash of the bytes read (None for an override, no bytes or
    no `hashing`; `cache.oversized` for a file too large to read)."""
    where = Span(display, 1, 1, 1, 1)
    if override is not None:
        if (
            len(override) * 4 > MAX_BYTES
            and (size := len(override.encode("utf-8", "surrogatepass"))) > MAX_BYTES
        ):
            # an editor's unsaved copy is held to the limit of the file on disk
            return (
                None,
                Finding("unreadable", f"file is too large to analyse ({size // 1024 // 1024} MiB)", where),
                None,
            )
        return override, None, None
    try:
        if path.is_dir():
            return None, Finding("unreadable", "is a directory, not a Python file", where), None
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            # A FIFO or device named `x.py` would block the read forever (or never end).
            return (
                None,
                Finding("unreadable", "is not a regular file (a pipe, socket or device)", where),
                None,
            )
        size = st.st_size
        if size > MAX_BYTES:
            return (
                None,
                Finding("unreadable", f"file is too large to analyse ({size // 1024 // 1024} MiB)", where),
                oversized(size),
            )
        data = path.read_bytes()
    except OSError as exc:
        return None, Finding("unreadable", f"cannot read file: {exc.strerror or exc}", where), None
    digest = bytes_hash(data) if hashing else None
    try:
        return decode(data), None, digest
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        return None, Finding("unreadable", f"cannot decode file: {exc}", where), digest


_READABLE: contextvars.ContextVar[Callable[[Path], bool] | None] = contextvars.ContextVar(
    "readable", default=None
)


@contextmanager
def reading_only(allowed: Callable[[Path], bool]) -> Iterator[None]:
    """Within the block, a module whose real path (links followed) `allowed` refuses is not
    read: it is an unreadable module, whichever way it was reached (given, found
    by an import, prefiltered). The agent server's rule for its client's roots: no text from
    outside them may reach a result, and imports would otherwise lead there."""
    token = _READABLE.set(allowed)
    try:
        yield
    finally:
        _READABLE.reset(token)


def parse(
    module: ParsedModule,
    override: str | None = None,
    lent: LentParses | None = None,
    keep: bool = False,
    hashing: bool = True,
) -> ParsedModule:
    """Fill in text, tree and `from __future__ import annotations` for a module.

    `lent`: trees an earlier build of the run parsed, taken for the same text; `keep`: lend
    this module's to later builds; `hashing=False`: no digest of the bytes read (`Project.hashing`)."""
    allowed = _READABLE.get()
    if allowed is not None and not allowed(Path(os.path.realpath(module.path))):
        where = Span(module.display, 1, 1, 1, 1)
        module.error = Finding("unreadable", "lies outside the workspace roots, so it was not read", where)
        return module
    text, error, digest = read_source(module.path, module.display, override, hashing)
    module.text = text
    if digest is not None:
        module.digest = digest
    if error is not None:
        module.error = error
        return module
    assert text is not None
    if lent is not None and lent.lend(module):  # kept only within the budget
        return module
    read = tree_of(text, module.display)
    if isinstance(read, Finding):
        module.error = read
        return module
    tree, module.type_params = read
    _parsed(module, tree)
    if keep and lent is not None:
        lent.keep(module)
    return module


def tree_of(text: str, display: str) -> tuple[ast.Module, frozenset[str]] | Finding:
    """The tree Python reads from `text` (within the parse budget, `parse_budget`) and its type
    parameters' names, or why there is none: the syntax error Python 3.12 reports (newer
    syntax is read as it reads it, `modern_syntax`), or what the parser refused."""
    if parse_budget.over_budget(text):
        too_large = f"file is too large to analyse (more than {parse_budget.MAX_TOKENS:,} tokens)"
        return Finding("unreadable", too_large, Span(display, 1, 1, 1, 1))
    try:
        tree = ast.parse(text, filename=display)
        return tree, modern_syntax.type_parameter_names(tree, text)
    except SyntaxError as exc:
        newer = modern_syntax.parse_newer(text, display)
        if newer is not None and not isinstance(newer, SyntaxError):
            return newer
        # The newer syntax read, something else wrong: the error Python 3.12 reports.
        reported = newer if isinstance(newer, SyntaxError) else exc
        line = reported.lineno or 1
        col = reported.offset or 1
        span = Span(
            display, line, col, reported.end_lineno or line, max(reported.end_offset or col + 1, col + 1)
        )
        return Finding("unreadable", f"syntax error: {reported.msg}{modern_syntax.hint(text)}", span)
    except (ValueError, RecursionError, MemoryError) as exc:
        reason = "source contains null bytes" if "null" in str(exc) else f"{type(exc).__name__}: {exc}"
        if isinstance(exc, UnicodeEncodeError):  # undecodable bytes kept as surrogates (stdin)
            reason = "it is not valid UTF-8 and declares no other encoding"
        if isinstance(exc, RecursionError | MemoryError):  # `a.b.b.b...` or `- - - 1` thousands deep
            reason = "it is nested too deeply for Python's parser (importing it would fail too)"
        return Finding("unreadable", f"cannot parse file: {reason}", Span(display, 1, 1, 1, 1))


def _parsed(module: ParsedModule, tree: ast.Module) -> ParsedModule:
    module.tree = tree
    module.future_annotations = future_annotations(tree)
    return module


def future_annotations(tree: ast.Module) -> bool:
    """Whether the module starts with `from __future__ import annotations`."""
    return any(
        isinstance(stmt, ast.ImportFrom)
        and stmt.module == "__future__"
        and any(a.name == "annotations" for a in stmt.names)
        for stmt in tree.body[:20]
    )


def deep_recursion_guard() -> None:
    """Raise the recursion limit once: ast walks of deeply nested user code recurse."""
    if sys.getrecursionlimit() < 10_000:
        sys.setrecursionlimit(10_000)


@contextmanager
def without_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a run builds and walks its trees.

    Thousands of long-lived AST nodes make every full collection walk the whole
    heap: measured on a 1,000-module project, parsing alone went from 0.6 s to
    6.6 s of CPU with the collector on. Nothing a run builds is garbage until the
    run ends, so pausing it loses nothing (reference counting still frees memory).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def spelling(node: ast.AST) -> str:
    """`ast.unparse(node)`, with names and dotted names (most of what is spelt) built directly:
    unparse was a tenth of a cold lint run."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        parts = [node.attr]
        value = node.value
        while isinstance(value, ast.Attribute):
            parts.append(value.attr)
            value = value.value
        if isinstance(value, ast.Name):
            parts.append(value.id)
            return ".".join(reversed(parts))
    return ast.unparse(node)
