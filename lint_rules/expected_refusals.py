"""Refusals a test asserts: reports located inside `with pytest.raises(X):` (or
`with self.assertRaises(X):`) where X is what the SDK raises for them, or a base of it.

Servers' test suites register bad tools on purpose, to check that the SDK refuses them:

    with pytest.raises(InvalidSignature, match="cannot be resolved"):
        @mcp.tool()
        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str: ...

The SDK raises there and the test passes: the refusal is what the code means, and `lint .`
on the repository must not report it. Only refusals (the MCPD0xx rules) are dropped, and only
when the expected exception catches the SDK's: `InvalidSignature` (a subclass of `Exception`
only) for most, `TypeError` for a decorator used bare (MCPD008), `ValueError` for an unnamed
lambda (MCPD010). `pytest.raises(ValueError)` around an `InvalidSignature` does not catch it
(the test fails), so that report stays, as does any warning (the SDK accepts the tool).

Read from the text of the files holding such reports, parsed only when the text names
`raises` or `Raises`: a few test files of a run, after the records are united.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence

from ..resolver_core.diagnostics import Diagnostic

_EVERYTHING = ("Exception", "BaseException")
REFUSED_WITH: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("MCPD001", "MCPD002", "MCPD003", "MCPD004", "MCPD005", "MCPD006", "MCPD009"),
        ("InvalidSignature", *_EVERYTHING),
    ),
    "MCPD007": _EVERYTHING,  # `TypeError`, `ValueError` or a `NameError`, by the target
    "MCPD008": ("TypeError", *_EVERYTHING),
    "MCPD010": ("ValueError", *_EVERYTHING),
}
"""For each refusal's rule, the exceptions that catch what the SDK raises (it and its bases)."""

_RAISES = frozenset({"raises", "assertRaises", "assertRaisesRegex"})


def without_expected(
    diagnostics: Sequence[Diagnostic], text_of: Callable[[str], str | None]
) -> list[Diagnostic]:
    """`diagnostics` without the refusals located inside a block expecting them."""
    paths = {d.path for d in diagnostics if d.code in REFUSED_WITH}
    blocks: dict[str, list[tuple[int, int, frozenset[str]]]] = {}
    for path in paths:
        text = text_of(path)
        if text is not None and ("raises" in text or "Raises" in text):
            blocks[path] = list(_blocks(text))
    if not any(blocks.values()):
        return list(diagnostics)
    return [d for d in diagnostics if not _expected(d, blocks.get(d.path, ()))]


def _expected(d: Diagnostic, blocks: Sequence[tuple[int, int, frozenset[str]]]) -> bool:
    caught = REFUSED_WITH.get(d.code, ())
    return any(start <= d.line <= end and names.intersection(caught) for start, end, names in blocks)


def _blocks(text: str) -> Iterator[tuple[int, int, frozenset[str]]]:
    """The lines of each `with` body expecting an exception, and the exceptions' names."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.With | ast.AsyncWith) and node.body:
            names = frozenset(n for item in node.items for n in _expects(item.context_expr))
            if names:
                first = node.body[0]  # a decorated def's first line is its first decorator's
                start = min([first.lineno, *(d.lineno for d in getattr(first, "decorator_list", ()))])
                yield start, node.end_lineno or node.body[-1].lineno, names


def _expects(expr: ast.expr) -> Iterator[str]:
    """The exception names `pytest.raises(X)`, `raises((X, Y))`, `self.assertRaises(X)` expect."""
    if not isinstance(expr, ast.Call):
        return
    func = expr.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if called not in _RAISES:
        return
    keyword = next((k.value for k in expr.keywords if k.arg in ("expected_exception", "exception")), None)
    expected = expr.args[0] if expr.args else keyword
    for one in expected.elts if isinstance(expected, ast.Tuple) else (expected,) if expected else ():
        if isinstance(one, ast.Name):
            yield one.id
        elif isinstance(one, ast.Attribute):
            yield one.attr
