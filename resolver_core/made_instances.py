"""The project class a call makes: `Deps()` in `Resolve(Deps().load_d)`, `get_deps()`.

Published servers take a method of an object where they build it (`Resolve(Deps().load_d)`,
`mcp.add_tool(Kit().search)`), or of what a getter hands out (`Resolve(get_deps().load_d)`,
the getter building or caching one `Deps()`). Python runs the call once, where it is
written, and the SDK reads the bound method it gets: the method's signature without `self`.
So the method is looked up on the class the call makes: a project class called directly,
or a project function every `return` of which builds that one class (a name it returns
counts when the function, or else the module, binds it to such a call: the cached
`global _deps` getter). A return annotation alone says nothing here (`-> Base` may hand out
a subclass overriding the method): unknown stays unknown, as for any other call.
"""

from __future__ import annotations

import ast

from .called_servers import written_at
from .library_decorators import MEMOIZING
from .signatures import own_nodes, returns_of
from .source import ParsedModule
from .symbols import Defined, Names, Scope, Value

_DEPTH = 8
"""Getters returning other getters' results, followed this deep."""


def made_class(
    names: Names, module: ParsedModule, call: ast.Call, scope: Scope | None, depth: int = 0
) -> Defined | None:
    """The project class whose instance `call` makes, or None when that is not known."""
    symbol = names.resolve(module, call.func, scope)
    callee = names.follow(symbol) if symbol is not None else None
    if not isinstance(callee, Defined):
        return None
    if isinstance(callee.node, ast.ClassDef):
        return callee
    if isinstance(callee.node, ast.FunctionDef) and depth < _DEPTH:  # an `async def` makes a coroutine
        return _returned_class(names, callee, callee.node, depth + 1)
    return None


def made_here(module: ParsedModule, call: ast.Call, scope: Scope | None) -> Value:
    """The instance a call makes where it is written (`Deps()` in `Deps().load_d`), named by
    its position: each such call is an object of its own, as each is a resolver of its own."""
    return Value(module, call, written_at(module, call), scope=scope)


def _returned_class(names: Names, getter: Defined, fn: ast.FunctionDef, depth: int) -> Defined | None:
    """The one class every `return` of `fn` builds (see the module's docstring)."""
    module = getter.module
    for deco in fn.decorator_list:
        if names.canonical(module, deco.func if isinstance(deco, ast.Call) else deco) not in MEMOIZING:
            return None  # what another decorator's wrapper returns is its own
    inner = Scope(module, fn, getter.qualname, getter.scope)
    found: list[Defined | None] = []
    for ret in returns_of(fn):
        value = ret.value
        if isinstance(value, ast.Name):
            value = _bound_call(names, getter, fn, value.id)
        found.append(made_class(names, module, value, inner, depth) if isinstance(value, ast.Call) else None)
    first = found[0] if found else None
    if first is None or any(cls is None or cls.node is not first.node for cls in found):
        return None
    return first


def _bound_call(names: Names, getter: Defined, fn: ast.FunctionDef, name: str) -> ast.Call | None:
    """The call `name` is bound to where `fn` returns it: assigned in `fn` (`_deps = Deps()`,
    `global` or local), else at module level."""
    for node in own_nodes(fn):
        if not isinstance(node, ast.Assign | ast.AnnAssign) or not isinstance(node.value, ast.Call):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return node.value
    held = names.lookup(getter.module, name)
    return held.node if isinstance(held, Value) and isinstance(held.node, ast.Call) else None
