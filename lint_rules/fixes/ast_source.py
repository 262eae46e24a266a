"""One file parsed with `ast`, and the lookups the span fixers need (no libcst).

A span fixer (`spans.py`) rewrites the text at `ast` node positions and must produce
exactly the text the libcst fixer would. `ast` positions exclude the parentheses
around an expression and know nothing of comments, so every fixer checks the text
between the nodes it keeps and the nodes it drops (`gap`) and gives up (`UNSURE`)
on anything but the plain shapes; `AstSource` also refuses, up front, the files
where libcst and `ast` could disagree on the text itself.

Positions: `ast` gives 1-based lines and UTF-8 byte columns; `offset` turns them
into offsets in the text (lines are split exactly as `ast` splits them, since
files with other line breaks are refused).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.lines import split_lines
from .edits import LineIndex

ODD_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
"""Characters `str.splitlines` or libcst treat as line breaks and `ast` does not (or the
reverse): with any of them, lines would not line up between the three."""

MAX_DEPTH = 80
"""Deeper trees go to libcst, which then decides (it refuses trees deep enough to
exhaust its recursion; `ast` is shallower than libcst's tree, so the margin is wide)."""

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
Function = ast.FunctionDef | ast.AsyncFunctionDef


class Unsure(Exception):
    """The shape is not one a span fixer handles for certain: libcst decides."""


class AstSource:
    """The text, its `ast` tree and offsets; raises `Unsure` for files only libcst may judge."""

    def __init__(self, text: str) -> None:
        if ODD_BREAKS.search(text) or _ends_in_blank_line_without_newline(text):
            raise Unsure("line breaks ast and libcst may count differently")
        self.text = text
        try:
            self.tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            raise Unsure("not parsed") from exc
        if deeper_than(self.tree, MAX_DEPTH):
            raise Unsure("deep tree")
        self.index = LineIndex(text)
        self.lines = split_lines(text, keepends=True)
        self._comments: list[tuple[int, int]] | None = None
        self._param_index: dict[tuple[int, int], tuple[ast.arg, Function | ast.Lambda]] | None = None

    def offset(self, line: int, byte_column: int) -> int:
        """Offset in the text of a 1-based line and a 0-based UTF-8 byte column."""
        start = self.index.starts[line - 1]
        row = self.lines[line - 1]
        if row.isascii():
            return start + byte_column
        return start + len(row.encode("utf-8")[:byte_column].decode("utf-8", errors="strict"))

    def start(self, node: ast.AST) -> int:
        return self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]

    def end(self, node: ast.AST) -> int:
        return self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]

    def segment(self, node: ast.AST) -> str:
        return self.text[self.start(node) : self.end(node)]

    def gap(self, start: int, end: int, pattern: str) -> None:
        """The text between two nodes must be exactly `pattern` (whitespace, a comma...): no
        parenthesis, comment or line continuation hides there."""
        if start > end or not re.fullmatch(pattern, self.text[start:end]):
            raise Unsure(f"unexpected text {self.text[start:end]!r}")

    def functions(self) -> Iterator[Function]:
        for node in ast.walk(self.tree):
            if isinstance(node, FUNCTIONS):
                yield node

    def param_at(self, d: Diagnostic) -> tuple[ast.arg, Function]:
        """The parameter whose name starts where the diagnostic starts, and its `def`.

        A lambda's parameter (libcst would take the `def` around the lambda) is not handled.
        """
        found = self._params().get((d.line, d.column - 1))
        if found is None:
            raise Unsure("no parameter at the diagnostic")
        arg, node = found
        if isinstance(node, ast.Lambda):
            raise Unsure("a lambda's parameter")
        if self.text[self.start(arg) :].startswith(arg.arg):
            return arg, node
        raise Unsure("positions do not match the text")

    def _params(self) -> dict[tuple[int, int], tuple[ast.arg, Function | ast.Lambda]]:
        """Every parameter by (line, column), the first in walk order: indexed once per file,
        not walked once per fix (a file of 1,000 fixable tools walked its tree 1,000 times)."""
        if self._param_index is None:
            self._param_index = {}
            for node in ast.walk(self.tree):
                if isinstance(node, (*FUNCTIONS, ast.Lambda)):
                    for arg in all_args(node.args):
                        self._param_index.setdefault((arg.lineno, arg.col_offset), (arg, node))
        return self._param_index

    def name_end(self, arg: ast.arg) -> int:
        return self.start(arg) + len(arg.arg)

    def in_comment(self, at: int) -> bool:
        """Whether an offset lies in a `#` comment (the file is tokenized once, when first asked)."""
        if self._comments is None:
            self._comments = []
            try:
                for token in tokenize.generate_tokens(io.StringIO(self.text).readline):
                    if token.type == tokenize.COMMENT:
                        start = self.offset(token.start[0], 0) + token.start[1]
                        self._comments.append((start, start + len(token.string)))
            except (tokenize.TokenError, SyntaxError) as exc:
                raise Unsure("not tokenized") from exc
        return any(start <= at < end for start, end in self._comments)


def all_args(args: ast.arguments) -> list[ast.arg]:
    found = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    found += [a for a in (args.vararg, args.kwarg) if a is not None]
    return found


def default_of(function: Function, arg: ast.arg) -> ast.expr | None:
    """The default value of a parameter (positional defaults are aligned to the end)."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    if arg in positional:
        first = len(positional) - len(args.defaults)
        i = positional.index(arg)
        return args.defaults[i - first] if i >= first else None
    if arg in args.kwonlyargs:
        return args.kw_defaults[args.kwonlyargs.index(arg)]
    return None


def default_is_removable(function: Function, arg: ast.arg) -> bool:
    """Whether dropping the default keeps the `def` valid (`cst_source.without_default`): no
    earlier positional parameter has one."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    if arg not in positional:
        return True
    return positional.index(arg) <= len(positional) - len(args.defaults)


def dotted_name(expr: ast.expr) -> str:
    """`Annotated`, `typing.Annotated`... as text (empty for anything else), as libcst spells it."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        base = dotted_name(expr.value)
        return f"{base}.{expr.attr}" if base else ""
    return ""


def last_name(expr: ast.expr) -> str:
    return dotted_name(expr).rpartition(".")[2]


def _ends_in_blank_line_without_newline(text: str) -> bool:
    tail = text.rpartition("\n")[2]
    return bool(tail) and not tail.strip()


def deeper_than(tree: ast.AST, limit: int) -> bool:
    """Whether some node of `tree` lies more than `limit` levels down (no recursion: the trees
    asked about are the deep ones)."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return False
