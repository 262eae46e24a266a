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
        return NOT_TOLD if marks[attr] is SET else marks[attr]
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
    fn.is_tool = True; return fn`), or the one a factory's call returns (`@tool(name="x")`,
    `def tool(name=None): def deco(fn): fn._tool_name = name; return fn; return deco`): a
    constant's value, a factory's parameter's value where the call passes a constant (or its
    default does), `SET` for any other value; None for any other decorator."""
    call = written if isinstance(written, ast.Call) else None
    node = _project_def(names, module, call.func if call is not None else written)
    if node is None:
        return None
    known: dict[str, object] = {}
    if call is not None:  # the decorator the factory returns, and what its parameters hold
        body = _statements(node)
        inner = body[0] if len(body) == 2 else None
        if (
            not isinstance(inner, ast.FunctionDef)
            or inner.decorator_list
            or not _returns_name(body[1], inner.name)
        ):
            return None
        passed = _passed(node, call)
        if passed is None:
            return None
        known, node = passed, inner
    params = node.args
    if params.posonlyargs or params.vararg or params.kwonlyargs or params.kwarg or len(params.args) != 1:
        return None
    param = params.args[0].arg
    body = _statements(node)
    if not body or not _returns_name(body[-1], param):
        return None
    marks: dict[str, object] = {}
    for stmt in body[:-1]:
        found = _mark_set(stmt, param)
        if found is None:
            return None
        attr, value = found
        if isinstance(value, ast.Constant):
            marks[attr] = value.value
        else:
            marks[attr] = known.get(value.id, SET) if isinstance(value, ast.Name) else SET
    return marks


SET = object()
"""A mark set to a value the source does not tell (`hasattr` is told, `getattr` is not)."""


def _project_def(names: Names, module: ParsedModule, written: ast.expr) -> ast.FunctionDef | None:
    """The undecorated project `def` a decorator (or factory) as written names."""
    if not isinstance(written, ast.Name | ast.Attribute):
        return None
    symbol = names.resolve(module, written, None)
    symbol = names.follow(symbol) if symbol is not None else None
    node = symbol.node if isinstance(symbol, Defined) else None
    return node if isinstance(node, ast.FunctionDef) and not node.decorator_list else None


def _statements(node: ast.FunctionDef) -> list[ast.stmt]:
    """A def's body without its docstring."""
    return node.body[1:] if node.body and _docstring(node.body[0]) else node.body


def _passed(factory: ast.FunctionDef, call: ast.Call) -> dict[str, object] | None:
    """Each parameter of `factory` -> the constant `call` passes for it, or its constant
    default when the call passes none (`SET` when it is something else); None when the call
    does not fit the parameters as written (spread arguments, `*args`, a name it lacks)."""
    spec = factory.args
    params = [p.arg for p in spec.args]
    if spec.posonlyargs or spec.vararg or spec.kwonlyargs or spec.kwarg or len(call.args) > len(params):
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg not in params for k in call.keywords):
        return None
    given = dict(zip(params[len(params) - len(spec.defaults) :], spec.defaults, strict=True))
    given.update(zip(params, call.args, strict=False))
    given.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
    if len(given) != len(params):
        return None  # a parameter the call leaves without a value: it raises
    return {p: v.value if isinstance(v, ast.Constant) else SET for p, v in given.items()}


_VALUES = (
    ast.Constant,
    ast.Name,
    ast.Attribute,
    ast.BoolOp,
    ast.Dict,
    ast.List,
    ast.Tuple,
    ast.Load,
    ast.Or,
    ast.And,
)
"""What a mark's value may be written of: names and constants (read, never raising but for a
name no scope binds, which the import would raise anyway)."""


def _mark_set(stmt: ast.stmt, param: str) -> tuple[str, ast.expr] | None:
    """`param.attr = value` or `setattr(param, "attr", value)`: the attribute and the value."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target, value = stmt.targets[0], stmt.value
        if (
            not isinstance(target, ast.Attribute)
            or not isinstance(target.value, ast.Name)
            or target.value.id != param
        ):
            return None
        attr = target.attr
    elif (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Name)
        and stmt.value.func.id == "setattr"
        and len(stmt.value.args) == 3
        and not stmt.value.keywords
    ):
        this, named, value = stmt.value.args
        if not isinstance(this, ast.Name) or this.id != param:
            return None
        if not isinstance(named, ast.Constant) or not isinstance(named.value, str):
            return None
        attr = named.value
    else:
        return None
    if not all(isinstance(n, _VALUES) for n in ast.walk(value)):
        return None
    return attr, value


def _docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _returns_name(stmt: ast.stmt, name: str) -> bool:
    return isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name) and stmt.value.id == name
