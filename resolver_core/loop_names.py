"""The name each value of a loop gives the tool it registers, when the name is written from the
loop variable: `name=fn.__name__` or `name=f"v2_{fn.__name__}"` in `for fn in (a, b):` names
the tools `a`, `b` (or `v2_a`, `v2_b`), read as the constants they are (`loop_rows.py`)."""

from __future__ import annotations

import ast


def named_after(name: ast.expr | None, variable: str, value: ast.expr) -> ast.expr | None:
    """`name=f"v2_{fn.__name__}"` (or `name=fn.__name__`) in `for fn in (a, b):`: the name each
    function gets (`v2_a`), as a constant; any other name expression as written."""
    if not isinstance(value, ast.Name):
        return name
    if name_of(name, variable):
        return ast.Constant(value.id)
    if not isinstance(name, ast.JoinedStr):
        return name
    text = ""
    for part in name.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            text += part.value
        elif (
            isinstance(part, ast.FormattedValue)
            and part.format_spec is None
            and part.conversion in _PLAIN
            and name_of(part.value, variable)
        ):
            text += value.id
        else:
            return name
    return ast.Constant(text)


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
