"""Shapes of resolved-parameter annotations shared by the MCPD003 and MCPD101 fixers."""

from __future__ import annotations

import libcst as cst

from .cst_source import last_name


def is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def annotated_with_resolve(expr: cst.BaseExpression) -> cst.Subscript | None:
    """`expr` itself when it is `Annotated[T, ..., Resolve(f), ...]`."""
    if not (isinstance(expr, cst.Subscript) and last_name(expr.value) == "Annotated"):
        return None
    for element in expr.slice[1:]:
        value = element.slice.value if isinstance(element.slice, cst.Index) else None
        if isinstance(value, cst.Call) and last_name(value.func) == "Resolve":
            return expr
    return None


def optional_arm(expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """X for `X | None`, `None | X`, `Optional[X]` or `Union[X, None]`; None for other shapes."""
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.BitOr):
        if is_none(expr.right) and not is_none(expr.left):
            return expr.left
        if is_none(expr.left) and not is_none(expr.right):
            return expr.right
        return None
    if isinstance(expr, cst.Subscript):
        args = [e.slice.value for e in expr.slice if isinstance(e.slice, cst.Index)]
        kind = last_name(expr.value)
        if kind == "Optional" and len(args) == 1:
            return args[0]
        if kind == "Union" and len(args) == 2 and sum(map(is_none, args)) == 1:
            return args[0] if is_none(args[1]) else args[1]
    return None


def unwrapped_resolve(expr: cst.BaseExpression) -> cst.Subscript | None:
    """The `Annotated[T, Resolve(f)]` inside an optional union (parentheses allowed), if that is the shape."""
    arm = optional_arm(expr)
    if arm is None:
        return None
    return annotated_with_resolve(arm.with_changes(lpar=[], rpar=[]))
