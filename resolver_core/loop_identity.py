"""A loop's test of which function its variable holds: `if fn is not skip:`, `if fn in SKIP:`.

A loop registering functions (`for fn in ALL: if fn is t: continue`, then `mcp.add_tool(fn)`
or `add(mcp, fn)`) leaves out the ones it tests by identity. A `def` (or `class`) statement
makes a new object each time it runs, and a function compares equal only to itself, so two
names bound to different defs are different objects, and one def is itself, whenever no
decorator may hand out something else in its place (a registry's decorator may return one
shared object): `is`, `is not`, `==`, `!=`, and `in` a collection written out of such names,
are decided; anything else is not (`loop_filters` then runs every value both ways).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .bindings import Element
from .source import ParsedModule
from .symbols import Defined, Names, Scope
from .written_collections import written_collection


def compared(
    names: Names,
    at: tuple[ParsedModule, Scope | None],
    expr: ast.Compare,
    left: ast.AST,
    def_of: Callable[[ast.expr], ast.AST | None],
) -> bool | None:
    """Whether `expr` (one comparison, read in `at`, whose left side is the def `left`) holds,
    `def_of` telling the def a side is; None when not decided."""
    op, right = expr.ops[0], expr.comparators[0]
    if isinstance(op, ast.Is | ast.IsNot | ast.Eq | ast.NotEq):
        other = def_of(right)
        return None if other is None else (left is other) is isinstance(op, ast.Is | ast.Eq)
    if not isinstance(op, ast.In | ast.NotIn):
        return None
    found = written_collection(names, at[0], right, at[1])
    if found is None:
        return None
    module, scope, collection = found
    if isinstance(collection, ast.Dict):
        return None
    others = [written_def(names, module, e, scope) for e in collection.elts]
    if any(o is None for o in others):
        return None
    return any(left is o for o in others) is isinstance(op, ast.In)


def written_def(names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> ast.AST | None:
    """The project def or class a name (read in `module`, at `scope`; another module's value
    where it is written) is bound to, when no decorator may hand out something else for it."""
    if isinstance(expr, Element):
        module, scope = expr.module, expr.scope
        expr = expr.written
    if not isinstance(expr, ast.Name | ast.Attribute):
        return None
    symbol = names.resolve(module, expr, scope)
    symbol = names.follow(symbol) if symbol is not None else None
    if not isinstance(symbol, Defined):
        return None
    node = symbol.node
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) or node.decorator_list:
        return None
    return node
