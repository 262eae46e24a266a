"""Marks a project decorator sets on the functions it decorates, which a loop then tests:

    def tool(fn):
        fn.is_tool = True
        return fn

    for name, fn in inspect.getmembers(tools, inspect.isfunction):
        if getattr(fn, "is_tool", False):
            mcp.add_tool(fn)

Published servers write `getattr(fn, "is_tool", False)`, `hasattr(fn, "_is_tool")` or
`getattr(fn, "_mcp_tool", None) is not None`. What each function carries once imported is
written in the source when every decorator on its def is a *marking* one: a project def of one
parameter whose body only sets attributes of it to constants and returns it (so it sets every
mark it writes, on every call, and hands the function itself back). A def with no decorator
carries no mark (its own attributes, dunders, are not marks). Any other decorator (a library's,
a wrapper, a factory's call, a mark set in a branch) leaves the test not told: the loop is then
read as before (`module_members.py` does not follow it).
"""

from __future__ import annotations

import ast

from .bindings import Defined, Element
from .source import ParsedModule
from .symbols import Names, Scope

_TESTS = frozenset({"builtins.getattr", "builtins.hasattr"})
NOT_TOLD = object()
"""What a mark test is when the source does not tell it (`loop_conditions.UNKNOWN`'s role)."""


def mark_test(call: ast.Call, variables: tuple[str, ...] | set[str]) -> str | None:
    """The attribute `call` tests on a loop variable: `getattr(fn, "is_tool", False)` (a
    constant default), `getattr(fn, "is_tool")`, `hasattr(fn, "_is_tool")`; None otherwise.
    The spelling only: `mark_truth` checks the names are the builtins."""
    func, args = call.func, call.args
    if not isinstance(func, ast.Name) or func.id not in ("getattr", "hasattr") or call.keywords:
        return None
    if len(args) not in ((2, 3) if func.id == "getattr" else (2,)):
        return None
    if not isinstance(args[0], ast.Name) or args[0].id not in variables:
        return None
    attr = args[1]
    if not isinstance(attr, ast.Constant) or not isinstance(attr.value, str):
        return None
    if attr.value.startswith("__") or (len(args) == 3 and not isinstance(args[2], ast.Constant)):
        return None  # a function's own attributes (`__name__`), a default computed
    return attr.value


def mark_truth(
    names: Names,
    at: tuple[ParsedModule, Scope | None],
    call: ast.Call,
    row: ast.expr,
    where: tuple[ParsedModule, Scope | None],
) -> object:
    """What `call` (a `mark_test`, read in `at`) gives for the function `row` names (read in
    `where`): the mark's value or the default for `getattr`, whether it is set for `hasattr`;
    `NOT_TOLD` when the source does not say."""
    attr = mark_test(call, {call.args[0].id} if isinstance(call.args[0], ast.Name) else set())
    if attr is None or names.canonical(at[0], call.func, at[1]) not in _TESTS:
        return NOT_TOLD
    marks = _marks(names, row, where)
    if marks is None:
        return NOT_TOLD
    assert isinstance(call.func, ast.Name)
    if call.func.id == "hasattr":
        return attr in marks
    if attr in marks:
        return marks[attr]
    default = call.args[2] if len(call.args) == 3 else None
    return default.value if isinstance(default, ast.Constant) else NOT_TOLD  # (no default: it raises)


def _marks(names: Names, row: ast.expr, where: tuple[ParsedModule, Scope | None]) -> dict[str, object] | None:
    """The marks the decorators of the def `row` names set, each with its value (the last one
    applied wins); None when a decorator on it is not a marking one (or `row` names no def)."""
    module, scope = where
    if isinstance(row, Element):
        module, scope, row = row.module, row.scope, row.written
    if not isinstance(row, ast.Name | ast.Attribute):
        return None
    symbol = names.resolve(module, row, scope)
    symbol = names.follow(symbol) if symbol is not None else None
    if not isinstance(symbol, Defined) or not isinstance(symbol.node, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    marks: dict[str, object] = {}
    for written in reversed(symbol.node.decorator_list):  # the one nearest the def runs first
        found = _marking(names, symbol.module, written)
        if found is None:
            return None
        marks.update(found)
    return marks


def _marking(names: Names, module: ParsedModule, written: ast.expr) -> dict[str, object] | None:
    """The marks `@written` sets when it is a marking decorator of the project (`def tool(fn):
    fn.is_tool = True; return fn`); None for any other."""
    if not isinstance(written, ast.Name | ast.Attribute):
        return None
    symbol = names.resolve(module, written, None)
    symbol = names.follow(symbol) if symbol is not None else None
    node = symbol.node if isinstance(symbol, Defined) else None
    if not isinstance(node, ast.FunctionDef) or node.decorator_list:
        return None
    params = node.args
    if params.posonlyargs or params.vararg or params.kwonlyargs or params.kwarg or len(params.args) != 1:
        return None
    param = params.args[0].arg
    body = node.body[1:] if _docstring(node.body[0]) else node.body
    if not body or not _returns_name(body[-1], param):
        return None
    marks: dict[str, object] = {}
    for stmt in body[:-1]:
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
            return None
        target, value = stmt.targets[0], stmt.value
        if (
            not isinstance(target, ast.Attribute)
            or not isinstance(target.value, ast.Name)
            or target.value.id != param
            or not isinstance(value, ast.Constant)
        ):
            return None
        marks[target.attr] = value.value
    return marks


def _docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _returns_name(stmt: ast.stmt, name: str) -> bool:
    return isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name) and stmt.value.id == name
