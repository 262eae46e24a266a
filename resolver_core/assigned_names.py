"""The name a function is given by assigning its `__name__`: `read.__name__ = f"read_{table}"`.

Servers making one closure per value (a table, an API operation, a command) name each after
the value, in the factory, before handing it out: the SDK registers the function under its
`__name__` when no `name=` is passed, so the tool is `read_users`, not `read`. The assignment
is read in the body the def is written in: a string written there is the name; an f-string of
the factory's parameters is the name each call of the factory makes, where the call passes
strings written out (`make_reader("users")`, or each value of a loop, `loop_rows.py`); any
other value is a name the run computes (compared with no other, `Tool.computed_name`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .bindings import Element, Scope
from .loop_names import filled
from .symbols import Defined, Names

if TYPE_CHECKING:
    from .registration_site import Registration
    from .tool_function import ToolFunction


def tool_name(names: Names, reg: Registration, target: ToolFunction) -> tuple[str, bool]:
    """The name the SDK registers `target` under, and whether the run computes it (compared
    with no other): the `name=` passed, else the `__name__` assigned, else the def's own."""
    fn = target.node
    written = reg.name_node is not None and not (
        isinstance(reg.name_node, ast.Constant) and reg.name_node.value is None
    )
    default = "<lambda>" if isinstance(fn, ast.Lambda) else target.qualname.rpartition(".")[2]
    if reg.name is not None or written or isinstance(fn, ast.Lambda):
        return reg.name or default, reg.name is None and written
    assigned, given = assigned_name(names, reg, fn, target.scope)
    return given or default, assigned and given is None


def assigned_name(
    names: Names, reg: Registration, fn: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope | None
) -> tuple[bool, str | None]:
    """Whether the body `fn` is written in assigns its `__name__`, and the name then (None when
    the run computes it); what the registration hands the SDK (`reg.fn`, the factory's call
    `make_reader("users")`) fills the f-string."""
    function = scope.function if scope is not None else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or scope is None:
        return False, None
    if f"{fn.name}.__name__" not in (scope.module.text or ""):
        return False, None  # (most modules: nothing to walk)
    body = function.body
    values = [
        stmt.value
        for stmt in _statements(body)
        for target in stmt.targets
        if isinstance(target, ast.Attribute)
        and target.attr == "__name__"
        and isinstance(target.value, ast.Name)
        and target.value.id == fn.name
    ]
    if not values:
        return False, None
    if len(values) > 1:
        return True, None
    value = values[0]
    if isinstance(value, ast.Constant):
        return True, value.value if isinstance(value.value, str) else None
    passed = _passed(names, reg, function)
    if not isinstance(value, ast.JoinedStr) or passed is None:
        return True, None
    text = filled(value, lambda part: passed.get(part.id) if isinstance(part, ast.Name) else None)
    return True, text


def _statements(body: list[ast.stmt]) -> list[ast.Assign]:
    """The assignments of a function body, outside the defs and classes it holds."""
    found: list[ast.Assign] = []
    todo = list(body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, ast.Assign):
            found.append(stmt)
        elif not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            todo.extend(s for s in ast.iter_child_nodes(stmt) if isinstance(s, ast.stmt))
    return found


def _passed(
    names: Names, reg: Registration, factory: ast.FunctionDef | ast.AsyncFunctionDef
) -> dict[str, str] | None:
    """The strings the registered call of `factory` passes for its parameters, by name: None
    unless what is registered is such a call, every argument a string written out."""
    registered = reg.fn
    if not isinstance(registered, ast.Call):
        return None
    symbol = names.resolve(reg.module, registered.func, reg.scope)
    symbol = names.follow(symbol) if symbol is not None else None
    if not isinstance(symbol, Defined) or symbol.node is not factory:
        return None
    params = [a.arg for a in (*factory.args.posonlyargs, *factory.args.args)]
    passed: dict[str, str] = {}
    for param, arg in zip(params, registered.args, strict=False):
        text = _text(arg)
        if text is None:
            return None
        passed[param] = text
    for keyword in registered.keywords:
        text = _text(keyword.value)
        if keyword.arg is None or text is None:
            return None
        passed[keyword.arg] = text
    return passed


def _text(node: ast.expr) -> str | None:
    """A string written out, here or in the collection a loop takes it from (`Element`)."""
    if isinstance(node, Element):
        node = node.written
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
