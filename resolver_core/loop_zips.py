"""Loops over `zip(...)` of collections written out: `for fn, name in zip(TOOLS, NAMES):`, and
`list(map(mcp.add_tool, TOOLS, NAMES))`, which the scan reads as that loop (`statement_calls`).

Python's `zip` yields a tuple per place, the values of each collection in step, and stops at the
end of the shortest: those rows are what the loop's variables take, read where the collections
are written (all in one place: one module, one scope, as the rows of one collection are).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .source import ParsedModule
from .symbols import Names, Scope
from .written_collections import Rows


def zipped_rows(
    names: Names,
    module: ParsedModule,
    expr: ast.expr,
    scope: Scope | None,
    rows_of: Callable[[Names, ParsedModule, ast.expr, Scope | None], Rows | None],
) -> Rows | None:
    """The rows of `zip(A, B, ...)` (each collection's values read by `rows_of`), one tuple per
    place of the shortest; None when `expr` is no such call (`strict=` or a starred argument
    included: not followed) or a collection is not written out, or not beside the others."""
    if not (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.args
        and not expr.keywords
        and names.canonical(module, expr.func, scope) == "builtins.zip"
    ):
        return None
    columns: list[tuple[ast.expr, ...]] = []
    where: tuple[ParsedModule, Scope | None] | None = None
    for collection in expr.args:
        found = rows_of(names, module, collection, scope)
        if found is None or (where is not None and where != found[:2]):
            return None
        where = found[:2]
        columns.append(found[2])
    assert where is not None
    return (*where, tuple(ast.Tuple(list(row), ast.Load()) for row in zip(*columns, strict=False)))
