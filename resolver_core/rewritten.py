"""Functions whose signature a module rewrites at run time, so the source's is not the SDK's.

`fn.__annotations__["x"] = T`, `fn.__annotations__ = {...}` or `fn.__signature__ = ...`
after the `def`: the SDK reads the rewritten one when the tool is registered, so the
builder must not judge such a tool by what the `def` declares. Found from the text
alone; a module that never spells either attribute is not walked.
"""

from __future__ import annotations

import ast

from .eager_annotations import bound_in
from .source import ParsedModule


def rewritten_functions(module: ParsedModule) -> set[str]:
    """Qualified names of the functions whose annotations or signature the module assigns: the
    function the written name is bound to where it is written (`patched.<locals>.tool` for a
    write in `patched()` to its own `tool`, `tool` for a module-level one, also written in a
    function that does not bind the name), so that another function's `tool` is not taken."""
    found: set[str] = set()
    text = module.text or ""
    if module.tree is None or ("__annotations__" not in text and "__signature__" not in text):
        return found
    _collect(module.tree.body, "", [], found)
    return found


def _collect(body: list[ast.stmt], prefix: str, scopes: list[tuple[str, set[str]]], found: set[str]) -> None:
    """The writes of `body` (of the function or class `prefix` names), each function written in
    it walked with its own names; `scopes`: the functions around, innermost last, with the names
    each binds."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = f"{prefix}{node.name}.<locals>."
            _collect(node.body, inner, [*scopes, (inner, _bound(node))], found)
            continue
        if isinstance(node, ast.ClassDef):  # (a class body's names are not its methods')
            _collect(node.body, f"{prefix}{node.name}.", scopes, found)
            continue
        if isinstance(node, ast.Lambda):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            name = _rewritten_function(target)
            if name is not None:
                owner = next((where for where, names in reversed(scopes) if name in names), "")
                found.add(f"{owner}{name}")
        todo.extend(ast.iter_child_nodes(node))


def _bound(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names a function binds in its own body (its parameters, and what its statements
    bind: `eager_annotations.bound_in`), unless declared `global` or `nonlocal` there."""
    names = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    names |= {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None}
    return (names | bound_in(fn.body)) - _declared_outer(fn.body)


def _declared_outer(body: list[ast.stmt]) -> set[str]:
    """The names `global` or `nonlocal` declares in `body`, not in the functions it defines."""
    out: set[str] = set()
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Global | ast.Nonlocal):
            out.update(node.names)
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))
    return out


def _rewritten_function(target: ast.expr) -> str | None:
    """`f.__annotations__[...]`, `f.__annotations__` or `f.__signature__` as an assignment target: `f`."""
    if isinstance(target, ast.Subscript):
        target = target.value
    if (
        isinstance(target, ast.Attribute)
        and target.attr in ("__annotations__", "__signature__")
        and isinstance(target.value, ast.Name)
    ):
        return target.value.id
    return None
