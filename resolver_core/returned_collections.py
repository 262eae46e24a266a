"""Collections a project function hands out: `for fn in get_tools(): mcp.add_tool(fn)`.

Published servers list their tools in a getter (`def get_all_tools(): return [search, fetch]`,
often in the tools package) and loop over its result. A function whose whole body is one
`return` (after its docstring) returns the collection written there on every call: its values
are the loop's, read in the function's own scope (`loop_rows.rows_of`). A function doing more
(building the list, choosing between several, decorated) is not guessed: the loop is said as
not analysed, as before.
"""

from __future__ import annotations

import ast

from .source import ParsedModule
from .symbols import Defined, Names, Scope


def returned(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> tuple[ParsedModule, Scope, ast.expr] | None:
    """What a call of a project getter returns (`get_tools()` where `def get_tools(): return
    [a, b]`), with the module and the function's scope it is read in; None for anything else."""
    if not isinstance(expr, ast.Call) or not isinstance(expr.func, ast.Name | ast.Attribute):
        return None
    symbol = names.resolve(module, expr.func, scope)
    symbol = names.follow(symbol) if symbol is not None else None
    if not isinstance(symbol, Defined) or not isinstance(symbol.node, ast.FunctionDef):
        return None
    fn = symbol.node
    body = fn.body[1:] if ast.get_docstring(fn, clean=False) is not None else fn.body
    if fn.decorator_list or len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    return symbol.module, Scope(symbol.module, fn, symbol.qualname, symbol.scope), body[0].value
