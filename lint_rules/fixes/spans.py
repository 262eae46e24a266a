"""Fixes computed from `ast` spans, for the plain shapes: no libcst import, no libcst tree.

Each function here gives the fixed text of the whole file, exactly the text the libcst
fixer of the same rule (its `FIX.fixer`) writes, or raises `Unsure` and lets that fixer decide:
refusals are libcst's too (a fix that is not certain here is never guessed), only the
cases that are cheap and unambiguous are decided here. The edits are then computed from
the before/after pair by the same `edits_between` as libcst's result, so both paths
produce the same `Fix` byte for byte (tests/test_fix_spans.py compares them on every
example, the corpus and random shapes).

What makes a shape plain: the text between the nodes kept and the nodes dropped is only
what the grammar puts there (`:`, `=`, `,`, brackets, spaces), checked with `gap`; no
comment, no line continuation, no parenthesis that `ast` positions would not show.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from ...resolver_core.diagnostics import Diagnostic
from .ast_source import (
    AstSource,
    Unsure,
    default_is_removable,
    default_of,
    last_name,
)

SpanFixer = Callable[[AstSource, Diagnostic], str | None]
"""Fixed text, None when there is certainly no fix, `Unsure` raised when libcst must decide.

None is answered only where the libcst fixer's own test is mirrored on the same node (the
shape is not the one rewritten, the default cannot go): libcst would refuse too."""


def elements(src: AstSource, sub: ast.Subscript) -> list[ast.expr]:
    """The subscript's elements as libcst lists them (`X[a, b]`: two; `X[(a, b)]`: one tuple)."""
    s = sub.slice
    if isinstance(s, ast.Tuple):
        if not s.elts or src.start(s) != src.start(s.elts[0]):
            raise Unsure("a parenthesised tuple in a subscript")
        found = list(s.elts)
    else:
        found = [s]
    if any(isinstance(e, (ast.Starred, ast.Slice)) for e in found):
        raise Unsure("a starred or slice element")
    return found


def is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


def annotated_with_resolve(src: AstSource, expr: ast.expr) -> ast.Subscript | None:
    """`expr` itself when it is `Annotated[T, ..., Resolve(f), ...]` (`annotations.annotated_with_resolve`)."""
    if not (isinstance(expr, ast.Subscript) and last_name(expr.value) == "Annotated"):
        return None
    for element in elements(src, expr)[1:]:
        if isinstance(element, ast.Call) and last_name(element.func) == "Resolve":
            return expr
    return None


def optional_arm(src: AstSource, expr: ast.expr) -> ast.expr | None:
    """X for `X | None`, `None | X`, `Optional[X]` or `Union[X, None]` (`annotations.optional_arm`)."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        if is_none(expr.right) and not is_none(expr.left):
            return expr.left
        if is_none(expr.left) and not is_none(expr.right):
            return expr.right
        return None
    if isinstance(expr, ast.Subscript):
        args = elements(src, expr)
        kind = last_name(expr.value)
        if kind == "Optional" and len(args) == 1:
            return args[0]
        if kind == "Union" and len(args) == 2 and sum(map(is_none, args)) == 1:
            return args[0] if is_none(args[1]) else args[1]
    return None


def unwrapped_resolve(src: AstSource, expr: ast.expr) -> ast.Subscript | None:
    arm = optional_arm(src, expr)
    return annotated_with_resolve(src, arm) if arm is not None else None


def _dropped(text: str) -> None:
    """Text a fix deletes must hold no comment or continuation: libcst's rules for those
    are its own, so such shapes are left to it."""
    if "#" in text or "\\" in text:
        raise Unsure("a comment or a continuation in what is removed")


class _Param:
    """A resolved parameter's annotation and default, checked plain: `name: <annotation> = <default>`."""

    def __init__(self, src: AstSource, d: Diagnostic) -> None:
        self.src = src
        self.arg, function = src.param_at(d)
        if self.arg.annotation is None:
            raise Unsure("no annotation")
        self.annotation = self.arg.annotation
        self.start, self.end = src.start(self.annotation), src.end(self.annotation)
        src.gap(src.name_end(self.arg), self.start, r"[ \t]*:[ \t]*")
        self.default = default_of(function, self.arg)
        self.stuck = self.default is not None and not default_is_removable(function, self.arg)
        """Dropping the default would be a syntax error: every marker fix is refused (libcst's
        `without_default` refuses before looking at the annotation)."""

    def default_end(self) -> int:
        """Where the text after the default starts (the annotation's end when there is none)."""
        if self.default is None:
            return self.end
        self.src.gap(self.end, self.src.start(self.default), r"[ \t]*=[ \t]*")
        _dropped(self.src.segment(self.default))
        return self.src.end(self.default)

    def reannotated(self, annotation: str, dropped: str) -> str:
        """The file with the annotation replaced and the default removed (`reannotated_without_default`)."""
        _dropped(dropped)
        text = self.src.text
        return text[: self.start] + annotation + text[self.default_end() :]


def resolve_in_union(src: AstSource, d: Diagnostic) -> str | None:
    """MCPD003: `Annotated[T, Resolve(f)] | None = None` → `Annotated[T, Resolve(f)]`."""
    param = _Param(src, d)
    if param.stuck:
        return None
    inner = unwrapped_resolve(src, param.annotation)
    if inner is None:
        return None  # as `annotations.unwrapped_resolve`: not the shape this fix rewrites
    start, end = src.start(inner), src.end(inner)
    return param.reannotated(src.text[start:end], src.text[param.start : start] + src.text[end : param.end])


def ignored_default(src: AstSource, d: Diagnostic) -> str | None:
    """MCPD111: drop the default of `x: Annotated[T, Resolve(f)] = v`."""
    param = _Param(src, d)
    if param.stuck:
        return None
    if param.default is None or annotated_with_resolve(src, param.annotation) is None:
        return None
    return param.reannotated(src.segment(param.annotation), "")


def hidden_resolve(src: AstSource, d: Diagnostic) -> str | None:
    """MCPD101: `Annotated[Annotated[T, Resolve(f)] | None, Field()] = None` → `Annotated[T, Resolve(f), Field()]`."""
    param = _Param(src, d)
    if param.stuck:
        return None
    outer = param.annotation
    if not isinstance(outer, ast.Subscript) or last_name(outer.value) != "Annotated":
        return None
    outer_elements = elements(src, outer)
    if len(outer_elements) < 2:
        return None
    first = outer_elements[0]
    inner = unwrapped_resolve(src, first) or annotated_with_resolve(src, first)
    if inner is None:
        return None
    inner_elements = elements(src, inner)
    text = src.text
    src.gap(src.end(outer.value), src.start(first), r"[ \t]*\[\s*")
    src.gap(src.end(first), src.start(outer_elements[1]), r"\s*,\s*")
    src.gap(src.end(inner.value), src.start(inner_elements[0]), r"[ \t]*\[\s*")
    src.gap(src.end(inner_elements[-1]), src.end(inner) - 1, r"\s*")
    kept_from, kept_to = src.start(inner_elements[0]), src.end(inner_elements[-1])
    rest = src.start(outer_elements[1])
    lifted = text[param.start : src.start(first)] + text[kept_from:kept_to] + ", " + text[rest : param.end]
    return param.reannotated(lifted, text[src.start(first) : kept_from] + text[kept_to:rest])


def include_context(src: AstSource, d: Diagnostic) -> str | None:
    """MCPD105: remove `include_context=...` from the one `Sample(...)` call at the diagnostic."""
    first = src.offset(d.line, d.column - 1)
    last = src.offset(d.end_line, d.end_column - 1)
    found: list[tuple[ast.Call, ast.keyword]] = []
    for node in ast.walk(src.tree):
        if not (isinstance(node, ast.Call) and last_name(node.func) == "Sample"):
            continue
        if src.start(node) <= last and first <= src.end(node):
            found += [(node, k) for k in node.keywords if k.arg == "include_context"]
    if len(found) != 1:
        raise Unsure("not one include_context= argument at the diagnostic")
    call, target = found[0]
    args: list[ast.expr | ast.keyword] = sorted([*call.args, *call.keywords], key=src.start)
    i = args.index(target)
    text = src.text
    _dropped(src.segment(target))
    if i + 1 < len(args):  # the argument and its comma go; the next one moves up
        after = src.start(args[i + 1])
        src.gap(src.end(target), after, r"[ \t]*,\s*")
        return text[: src.start(target)] + text[after:]
    if i == 0:
        raise Unsure("the only argument")
    # the last argument: the one before it takes its comma (and the layout after it); without
    # a comma, the space before `)` is the removed argument's own and goes with it
    before, close = src.end(args[i - 1]), src.end(call) - 1
    src.gap(before, src.start(target), r"\s*,\s*")
    tail = text[src.end(target) : close]
    if not tail.strip():
        tail = ""
    else:
        src.gap(src.end(target), close, r"\s*,\s*")
    return text[:before] + tail + text[close:]
