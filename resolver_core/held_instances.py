"""The project object an attribute holds, for a bound method read through it.

Published servers keep their tool objects on another object and register their methods down
the chain: a server class storing a holder in `__init__` (`self.tools = Tools()`, whose own
`__init__` stores `self.rag = Rag()`) adds `self.tools.rag.search`, a module adds
`tools.rag.search` of a module-level `tools = Tools()`. The SDK reads the bound method
`Rag.search` (no `self`). Each link is read where the holder's class stores it: a call of a
project class assigned to `self.<attr>` in that class's `__init__`, at its top level (an
attribute assigned elsewhere, or computed, is not guessed: the caller says not analysed).
"""

from __future__ import annotations

import ast

from .bindings import assignment_targets
from .class_members import self_class
from .made_instances import made_class
from .source import ParsedModule
from .symbols import Defined, Names, Scope, Symbol, Value

_MAX_HOLDERS = 8
"""Links of `self.a.b.c` followed to the object an attribute holds before giving up."""


def instance_class(names: Names, symbol: Symbol | None) -> tuple[Value, Defined] | None:
    """For `obj = Cls(...)` or `obj = get_cls()` (an instance of a project class): (obj, Cls)."""
    if not isinstance(symbol, Value) or not isinstance(symbol.node, ast.Call):
        return None
    cls = made_class(names, symbol.module, symbol.node, symbol.scope)
    return (symbol, cls) if cls is not None else None


def stored_instance(
    names: Names, module: ParsedModule, expr: ast.Attribute, scope: Scope | None, depth: int = 0
) -> Value | None:
    """`self.tools` in a method, where the class's own `__init__` stores `self.tools =
    WeatherTools()` (`self.mcp.add_tool(self.tools.forecast)`): that call, as the value
    `self.tools` holds (`instance_class` reads its class at module level). Down a chain of
    such attributes too (`self.tools.rag`, `WeatherTools.__init__` storing `self.rag = Rag()`),
    from `self` or from a module-level instance (`tools.rag`)."""
    cls = _holder_class(names, module, expr.value, scope, depth)
    init = names.member(cls, "__init__") if cls is not None else None
    if not isinstance(init, Defined) or not isinstance(init.node, ast.FunctionDef):
        return None
    positional = [*init.node.args.posonlyargs, *init.node.args.args]
    if not positional:
        return None
    me = positional[0].arg
    for stmt in init.node.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Call)):
            continue
        target = stmt.targets[0]
        if (
            isinstance(target, ast.Attribute)
            and target.attr == expr.attr
            and isinstance(target.value, ast.Name)
            and target.value.id == me
        ):
            return Value(init.module, stmt.value, ast.unparse(expr))
    return None


def _holder_class(
    names: Names, module: ParsedModule, value: ast.expr, scope: Scope | None, depth: int
) -> Defined | None:
    """The project class of the object whose attribute `stored_instance` reads: `self`'s in a
    method, a module-level instance's (`tools = Tools()`), or the class of what an attribute of
    one holds (`self.tools`), a few links deep."""
    if isinstance(value, ast.Name):
        symbol = names.resolve(module, value, scope)
        cls = self_class(names, module, symbol, scope)
        if cls is not None:
            return cls
        found = instance_class(names, names.follow(symbol) if symbol is not None else None)
    elif isinstance(value, ast.Attribute) and depth < _MAX_HOLDERS:
        found = instance_class(names, stored_instance(names, module, value, scope, depth + 1))
    else:
        return None
    return found[1] if found is not None else None


def class_collection(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> tuple[ParsedModule, ast.expr] | None:
    """`self.TOOLS` in a method, where the class body binds `TOOLS` and no method of the class
    assigns `self.TOOLS`: the class attribute, as `Kit.TOOLS` written at module level reads it
    (what a loop over it runs over, `loop_rows.rows_of`). None for anything else, and when an
    instance attribute of that name may shadow it."""
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)):
        return None
    cls = self_class(names, module, names.resolve(module, expr.value, scope), scope)
    if cls is None or not isinstance(cls.node, ast.ClassDef):
        return None
    attr = expr.attr
    if not any(_binds(stmt, attr) for stmt in cls.node.body) or _stores_on_instances(cls.node, attr):
        return None
    return cls.module, ast.Attribute(ast.Name(cls.qualname, ast.Load()), attr, ast.Load())


def _binds(stmt: ast.stmt, attr: str) -> bool:
    """Whether a statement of a class body binds `attr` (`TOOLS = (...)`, `TOOLS: tuple = ...`)."""
    return not isinstance(stmt, ast.AugAssign) and any(
        isinstance(t, ast.Name) and t.id == attr for t in assignment_targets(stmt)
    )


def _stores_on_instances(cls: ast.ClassDef, attr: str) -> bool:
    """Whether a method of `cls` assigns `<anything>.attr` (`self.TOOLS = [...]`, `+=`)."""
    return any(
        isinstance(t, ast.Attribute) and t.attr == attr
        for node in ast.walk(cls)
        for t in assignment_targets(node)
    )
