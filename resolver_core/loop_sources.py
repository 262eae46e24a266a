"""Loops over values the source lists somewhere other than a collection bound to a name.

Two shapes published servers register their tools in (`loop_rows.py` reads the others):

- a list an instance's `__init__` stores (`self.tools = [a, b]`), looped over in another
  method (`for fn in self.tools: mcp.add_tool(fn)`): each value, read where `__init__` writes
  it, when nothing else in the class assigns or changes that attribute (an `append`, a `+=`,
  a second assignment: then what is written is not what the loop sees);
- `getattr(module, name)` for each name a loop variable takes from strings written out
  (`for name in tools.__all__: mcp.add_tool(getattr(tools, name))`): the module's attribute
  of that name, as if written `tools.t`.

Anything else (a list filled from the arguments, a name built at run time) is not guessed:
the registration scan notes it as not followed, as before.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from typing import Protocol

from .source import ParsedModule
from .symbols import Names, Scope

_SEQUENCES = (ast.Tuple, ast.List)


class Listing(Protocol):
    """The values a loop variable takes (`loop_rows.Listed`)."""

    @property
    def values(self) -> tuple[ast.expr, ...]: ...


def held_list(
    module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> tuple[ParsedModule, Scope | None, tuple[ast.expr, ...]] | None:
    """`self.tools` in a method, when the class's `__init__` stores a list or tuple written out
    there once (`self.tools = [t]`) and no other statement of the class binds or changes it:
    the values, with the module and scope to read them in (the class's, as `__init__`'s names
    that are not its own locals are). None for anything else."""
    method = scope.function if scope is not None else None
    if (
        not isinstance(expr, ast.Attribute)
        or not isinstance(expr.value, ast.Name)
        or not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef)
        or not method.args.args
        or method.args.args[0].arg != expr.value.id
        or method.decorator_list  # a classmethod's `cls.tools` is the class's, not `__init__`'s
        or module.tree is None
    ):
        return None
    cls = _class_defining(module.tree, method)
    init = (
        next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
        if cls
        else None
    )
    if cls is None or init is None or not init.args.args:
        return None
    stored = [
        stmt.value
        for stmt in init.body
        if isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and _is_attribute(stmt.targets[0], init.args.args[0].arg, expr.attr)
    ]
    if len(stored) != 1 or not isinstance(stored[0], _SEQUENCES) or not stored[0].elts:
        return None
    values = stored[0].elts
    own = Scope(module, init, f"{cls.name}.__init__", scope.parent if scope else None).bindings
    if not all(isinstance(v, ast.Name) and v.id not in own for v in values):
        return None  # a value `__init__` is passed or computes: not known here
    if _changed(ast.get_source_segment(module.text or "", cls) or "", expr.attr):
        return None
    return module, scope.parent if scope else None, tuple(values)


def fetched_by_name(
    names: Names, module: ParsedModule, scope: Scope | None, fn: ast.expr, listed: Mapping[str, Listing]
) -> Sequence[ast.expr] | None:
    """`getattr(tools, name)` where the loop variable `name` takes strings written out (`for name
    in tools.__all__:`): `tools.<each>`, read where the call is; None for anything else."""
    if not (
        isinstance(fn, ast.Call)
        and isinstance(fn.func, ast.Name)
        and len(fn.args) == 2
        and not fn.keywords
        and isinstance(fn.args[1], ast.Name)
        and fn.args[1].id in listed
        and isinstance(fn.args[0], ast.Name | ast.Attribute)
    ):
        return None
    values = listed[fn.args[1].id].values
    if not values or not all(
        isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value.isidentifier() for v in values
    ):
        return None
    if names.canonical(module, fn.func, scope) != "builtins.getattr":
        return None
    return [ast.copy_location(ast.Attribute(fn.args[0], v.value, ast.Load()), fn) for v in values]  # type: ignore[attr-defined]


def _class_defining(tree: ast.Module, method: ast.AST) -> ast.ClassDef | None:
    """The class (at module level, or nested in one) whose body defines `method`."""
    todo = [s for s in tree.body if isinstance(s, ast.ClassDef)]
    while todo:
        cls = todo.pop()
        for stmt in cls.body:
            if stmt is method:
                return cls
            if isinstance(stmt, ast.ClassDef):
                todo.append(stmt)
    return None


def _is_attribute(node: ast.expr, owner: str, attr: str) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == owner
        and node.attr == attr
    )


def _changed(text: str, attr: str) -> bool:
    """Whether a class's source binds `self.<attr>` more than once or changes what it holds."""
    bound = re.findall(rf"\.\s*{re.escape(attr)}\s*(?::[^=\n]*)?=[^=]", text)
    changed = re.search(
        rf"\.\s*{re.escape(attr)}\s*(?:\.\s*(?:append|extend|insert|remove|pop|clear|__setitem__)\s*\("
        r"|[-+|*]=|\[[^\]\n]*\]\s*=[^=])",
        text,
    )
    return len(bound) != 1 or changed is not None
