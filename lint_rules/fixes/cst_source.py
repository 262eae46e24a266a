"""One file parsed with libcst, and the lookups every fixer needs.

Diagnostics carry ast positions (1-based line, UTF-8 byte column + 1); libcst
reports character columns, so `char_column` converts before any comparison.
The module is wrapped without a copy, so nodes found through metadata can be
replaced in `self.module` directly (`deep_replace` works by identity).
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.lines import split_lines


class CstSource:
    def __init__(self, text: str) -> None:
        self.text = text
        self.module = cst.parse_module(text)
        self.wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
        self.positions = self.wrapper.resolve(PositionProvider)
        self._parents: dict[cst.CSTNode, cst.CSTNode] | None = None
        self.lines = split_lines(text)

    @property
    def parents(self) -> dict[cst.CSTNode, cst.CSTNode]:
        """Each node's parent, built on first use from `children` (libcst's ParentNodeProvider
        maps the same pairs through a full visitor pass, three times slower; most fixes never
        ask). A loop, not recursion: the trees here may be deep."""
        if self._parents is None:
            parents: dict[cst.CSTNode, cst.CSTNode] = {}
            stack: list[cst.CSTNode] = [self.module]
            while stack:
                node = stack.pop()
                for child in node.children:
                    parents[child] = node
                    stack.append(child)
            self._parents = parents
        return self._parents

    def char_column(self, line: int, byte_column: int) -> int:
        """0-based character column of a diagnostic's 1-based byte column."""
        raw = self.lines[line - 1].encode("utf-8") if 0 < line <= len(self.lines) else b""
        return len(raw[: byte_column - 1].decode("utf-8", errors="ignore"))

    def start(self, d: Diagnostic) -> tuple[int, int]:
        return d.line, self.char_column(d.line, d.column)

    def end(self, d: Diagnostic) -> tuple[int, int]:
        return d.end_line, self.char_column(d.end_line, d.end_column)

    def nodes(self, kind: type[cst.CSTNode]) -> Iterator[cst.CSTNode]:
        for node in self.positions:
            if isinstance(node, kind):
                yield node

    def param_at(self, d: Diagnostic) -> cst.Param | None:
        """The parameter whose name starts where the diagnostic starts (rules point at `name: ann`)."""
        where = self.start(d)
        for node in self.nodes(cst.Param):
            assert isinstance(node, cst.Param)
            pos = self.positions[node.name].start
            if (pos.line, pos.column) == where:
                return node
        return None

    def overlapping(self, kind: type[cst.CSTNode], d: Diagnostic) -> Iterator[cst.CSTNode]:
        """Nodes of a kind whose range meets the diagnostic's range, innermost last."""
        start, end = self.start(d), self.end(d)
        for node in self.nodes(kind):
            r = self.positions[node]
            if (r.start.line, r.start.column) <= end and start <= (r.end.line, r.end.column):
                yield node

    def function_of(self, node: cst.CSTNode) -> cst.FunctionDef | None:
        current: cst.CSTNode | None = node
        while current is not None and not isinstance(current, cst.FunctionDef):
            current = self.parents.get(current)
        return current

    def replace(self, old: cst.CSTNode, new: cst.CSTNode) -> cst.Module:
        result = self.module.deep_replace(old, new)
        assert isinstance(result, cst.Module)
        return result


def dotted_name(expr: cst.BaseExpression) -> str:
    """`Annotated`, `typing.Annotated`... as text (empty for anything else)."""
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Attribute):
        base = dotted_name(expr.value)
        return f"{base}.{expr.attr.value}" if base else ""
    return ""


def last_name(expr: cst.BaseExpression) -> str:
    return dotted_name(expr).rpartition(".")[2]


def without_default(function: cst.FunctionDef | None, param: cst.Param) -> cst.Param | None:
    """The parameter without its default, or None when that would be a syntax error.

    A positional parameter without a default cannot follow one with a default,
    so the fix is refused when an earlier positional parameter has one.
    """
    if param.default is None:
        return param
    if function is None:
        return None
    positional = [*function.params.posonly_params, *function.params.params]
    if param in positional:
        before = positional[: positional.index(param)]
        if any(p.default is not None for p in before):
            return None
    return param.with_changes(default=None, equal=cst.MaybeSentinel.DEFAULT)


def reannotated_without_default(
    source: CstSource, param: cst.Param, annotation: cst.BaseExpression
) -> cst.Module | None:
    """The module with `param` annotated `annotation` and its default dropped (None if unsafe).

    Both marker fixes end this way: a resolved parameter is always filled, so once its
    `Resolve` is where the SDK honours it, the default is dead code.
    """
    changed = without_default(source.function_of(param), param)
    if changed is None or param.annotation is None:
        return None
    return source.replace(
        param, changed.with_changes(annotation=param.annotation.with_changes(annotation=annotation))
    )
