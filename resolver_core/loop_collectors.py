"""Lists a collecting decorator fills: `def tool(fn): TOOLS.append(fn); return fn` over a
module-level `TOOLS = []`, then `for fn in TOOLS: mcp.add_tool(fn)`.

The source leaves the list empty, so `loop_rows.rows_of` cannot read its values; what lands is
whatever each `@tool` decorates or each `tool(f)` passes, followed from the collector's
parameter (`reach.py`), as for `def tool(fn): mcp.add_tool(fn)`. Only a list exactly one
module-level function appends its first parameter to is read so.
"""

from __future__ import annotations

import ast

from .records import record
from .source import ParsedModule
from .symbols import Names, Scope, Value


@record
class Collector:
    """`def tool(fn): TOOLS.append(fn); return fn`: the function that fills a list the source
    leaves empty; a loop over that list registers whatever each `@tool` decorates or each
    `tool(f)` passes (followed from the collector's parameter, as for `def tool(fn): mcp.add_tool(fn)`)."""

    module: ParsedModule
    function: ast.FunctionDef
    parameter: ast.Name
    """`fn` as the collector appends it: the registered expression, read in its body."""


def _collector_of(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> Collector | None:
    """The one module-level function that appends its first parameter to the list `expr` names."""
    symbol = names.resolve(module, expr, scope) if isinstance(expr, ast.Name | ast.Attribute) else None
    if not isinstance(symbol, Value) or symbol.scope is not None or symbol.module.tree is None:
        return None
    node = symbol.node
    empty = isinstance(node, ast.List) and not node.elts
    if not empty and not (  # `list()`, not `list(BASE)`: what that copies is in the list too
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "list"
        and not node.args
        and not node.keywords
    ):
        return None
    found = [
        Collector(symbol.module, stmt, arg)
        for stmt in symbol.module.tree.body
        if isinstance(stmt, ast.FunctionDef) and stmt.args.args
        for arg in _appended(stmt, symbol.name)
    ]
    return found[0] if len(found) == 1 else None


def _appended(fn: ast.FunctionDef, name: str) -> list[ast.Name]:
    """`NAME.append(p)` in `fn`'s own body, `p` its first parameter."""
    first = fn.args.args[0].arg
    return [
        call.args[0]
        for stmt in fn.body
        if isinstance(stmt, ast.Expr) and isinstance(call := stmt.value, ast.Call)
        if isinstance(call.func, ast.Attribute) and call.func.attr == "append"
        if isinstance(call.func.value, ast.Name) and call.func.value.id == name
        if len(call.args) == 1 and isinstance(call.args[0], ast.Name) and call.args[0].id == first
    ]


def collector_of_loop(
    names: Names, module: ParsedModule, stmt: ast.stmt, scope: Scope | None
) -> Collector | None:
    """`for fn in TOOLS:` where `TOOLS = []` is filled by one decorator: that decorator."""
    if isinstance(stmt, ast.For | ast.AsyncFor) and isinstance(stmt.target, ast.Name):
        return _collector_of(names, module, stmt.iter, scope)
    return None
