"""`getattr(deps, "load_d")` with a constant name: the attribute `deps.load_d`, read as written.

Published servers reach a resolver or a tool through `getattr` where a linter or an import
cycle made them avoid the attribute; with a constant name and no default, Python reads exactly
the attribute (raising as it would where it is missing), so the analysis reads it too instead
of calling it computed at run time. A default (`getattr(m, "x", None)`) or a computed name
stays what it is: a value only the run knows.
"""

from __future__ import annotations

import ast


def attribute_read(expr: ast.AST) -> tuple[ast.expr, str] | None:
    """The object and the attribute name `getattr(obj, "name")` reads, or None for any other
    expression (a default given, a name not a constant identifier, keywords)."""
    if not (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "getattr"
        and len(expr.args) == 2
        and not expr.keywords
        and isinstance(expr.args[1], ast.Constant)
        and isinstance(expr.args[1].value, str)
        and expr.args[1].value.isidentifier()
    ):
        return None
    return expr.args[0], expr.args[1].value
