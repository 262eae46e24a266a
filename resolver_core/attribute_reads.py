"""`getattr(deps, "load_d")` and `vars(deps)["load_d"]` with a constant name: the attribute
`deps.load_d`, read as written.

Published servers reach a resolver or a tool through `getattr` or a module's `vars()` where a
linter or an import cycle made them avoid the attribute; with a constant name and no default,
Python reads exactly the attribute (raising as it would where it is missing), so the analysis
reads it too instead of calling it computed at run time. A default (`getattr(m, "x", None)`,
`vars(m).get("x")`) or a computed name stays what it is: a value only the run knows.
"""

from __future__ import annotations

import ast


def attribute_read(expr: ast.AST) -> tuple[str, ast.expr, str] | None:
    """The builtin read through (`getattr`, `vars`), the object and the attribute name of
    `getattr(obj, "name")` or `vars(obj)["name"]`; None for any other expression (a default
    given, a name not a constant identifier, keywords)."""
    if isinstance(expr, ast.Subscript):
        made, name = expr.value, _name(expr.slice)
        if isinstance(made, ast.Call) and len(made.args) == 1 and _plain_call(made, "vars") and name:
            return "vars", made.args[0], name
    elif isinstance(expr, ast.Call) and len(expr.args) == 2 and _plain_call(expr, "getattr"):
        name = _name(expr.args[1])
        if name:
            return "getattr", expr.args[0], name
    return None


def _plain_call(call: ast.Call, builtin: str) -> bool:
    """`builtin(...)` called by its name, with no keyword."""
    return isinstance(call.func, ast.Name) and call.func.id == builtin and not call.keywords


def _name(node: ast.expr) -> str | None:
    """The string constant `node` is, when it can be an attribute's name."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
        return node.value
    return None
