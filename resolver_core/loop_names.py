"""The name each value of a loop gives the tool it registers, when the name is written from the
loop variable: `name=fn.__name__` or `name=f"v2_{fn.__name__}"` in `for fn in (a, b):` names
the tools `a`, `b` (or `v2_a`, `v2_b`), read as the constants they are (`loop_rows.py`)."""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable


def named_after(name: ast.expr | None, variable: str, value: ast.expr) -> ast.expr | None:
    """`name=f"v2_{fn.__name__}"` (or `name=fn.__name__`) in `for fn in (a, b):`: the name each
    function gets (`v2_a`), as a constant; any other name expression as written."""
    if not isinstance(value, ast.Name):
        return name
    if name_of(name, variable):
        return ast.Constant(value.id)
    if not isinstance(name, ast.JoinedStr):
        return _put_in(name, variable, value.id)
    text = filled(name, lambda part: value.id if name_of(part, variable) else None)
    return ast.Constant(text) if text is not None else _put_in(name, variable, value.id)


def filled(name: ast.JoinedStr, value_of: Callable[[ast.expr], str | None]) -> str | None:
    """The text an f-string makes, each of its values read by `value_of` (None: not read, and
    so is the whole), formatted as it is (`{x}`, `{x!s}`; `!r` quotes it, `!a` escapes it)."""
    text = ""
    for part in name.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            text += part.value
            continue
        value = (
            value_of(part.value)
            if isinstance(part, ast.FormattedValue) and part.format_spec is None and part.conversion in _PLAIN
            else None
        )
        if value is None:
            return None
        text += value
    return text


def _put_in(name: ast.expr | None, variable: str, text: str) -> ast.expr | None:
    """`name` with the function's name in the place of each `variable.__name__` it holds
    (`OPTIONS.get(fn.__name__, {}).get("name")` -> `OPTIONS.get("search", {}).get("name")`,
    `unpacked_options.folded` reads the lookup); `name` itself when it holds none."""
    if name is None or not any(name_of(n, variable) for n in ast.walk(name) if isinstance(n, ast.expr)):
        return name

    class PutIn(ast.NodeTransformer):
        def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
            if name_of(node, variable):
                return ast.copy_location(ast.Constant(text), node)
            return self.generic_visit(node)

    put: ast.expr = PutIn().visit(copy.deepcopy(name))
    return put


def name_of(node: ast.expr | None, variable: str) -> bool:
    """Whether `node` is `variable.__name__`."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "__name__"
        and isinstance(node.value, ast.Name)
        and node.value.id == variable
    )


_PLAIN = (-1, ord("s"))
"""The conversions that leave a name as it is (`{fn.__name__}`, `{fn.__name__!s}`): `!r` quotes
it (`'good'`) and `!a` escapes it, another name the tool then has."""
