"""Collections joined by `+` or `itertools.chain`: `ALL_TOOLS = READ_TOOLS + WRITE_TOOLS`.

Published servers keep one list of tools per feature and join them for the loop registering
them with `+` (`for fn in READ_TOOLS + WRITE_TOOLS:`, or a name bound once to the sum, here or
in another module) or with `itertools.chain(READ_TOOLS, WRITE_TOOLS)`. Iterating either yields
each part's values in order, as unpacking them does (`[*READ_TOOLS, *WRITE_TOOLS]`,
`joined_lists.py`): `parts` gives the parts, which `loop_rows.rows_of` reads as that list.
A name bound to the sum that the source changes afterwards (`ALL_TOOLS.append(f)`) holds more
than is written: not read (`written_collections.followed`).
"""

from __future__ import annotations

import ast

from .source import ParsedModule
from .symbols import Names, Scope
from .written_collections import followed


def parts(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> tuple[ParsedModule, Scope | None, list[ast.expr]] | None:
    """The collections `expr` joins, in order, with the module and scope they are written in:
    `A + B + C`, `itertools.chain(A, B)`, or a name bound once to one of them; None for anything
    else (the caller reads it as it did)."""

    def summed(
        at: ParsedModule, inside: Scope | None, node: ast.expr, _: int
    ) -> tuple[ParsedModule, Scope | None, list[ast.expr]] | None:
        operands = _operands(names, at, node, inside)
        return None if operands is None else (at, inside, operands)

    return followed(names, module, expr, scope, summed)


def _operands(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> list[ast.expr] | None:
    """`A + B + C` as `[A, B, C]`, `itertools.chain(A, B)` as `[A, B]`; None for anything else."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        left = _operands(names, module, expr.left, scope) if isinstance(expr.left, ast.BinOp) else None
        return [*(left if left is not None else [expr.left]), expr.right]
    if (
        isinstance(expr, ast.Call)
        and expr.args
        and not expr.keywords
        and not any(isinstance(a, ast.Starred) for a in expr.args)
        and names.canonical(module, expr.func, scope) == "itertools.chain"
    ):
        return list(expr.args)
    return None
