"""`if sys.version_info >= (3, 10):` read as every Python the SDK runs on reads it.

Published packages define a name per Python version (`if sys.version_info >= (3, 11): from
typing import Self` / `else: from typing_extensions import Self`, a resolver written twice).
mcpdeps has no notion of the project's target Python (no setting names one, and the Python
running mcpdeps is not the project's), so a test is decided only when every Python the SDK
supports decides it alike: `mcp` 2.3.0 requires Python 3.10 or later (`Requires-Python:
>=3.10`), and so does mcpdeps, so `sys.version_info >= (3, 10)` is true and `< (3, 10)`
false everywhere it can run. A test some supported Python decides the other way
(`>= (3, 11)`, `< (3, 13)`) is not decided: both arms are read, as for any other `if`.
"""

from __future__ import annotations

import ast

OLDEST = (3, 10)
"""The oldest Python the SDK (and mcpdeps) runs on."""

_OPS = (ast.Gt, ast.GtE, ast.Lt, ast.LtE)


def version_test(test: ast.expr) -> bool | None:
    """Whether `test` (`sys.version_info >= (3, 10)`, `sys.version_info[:2] < (3, 10)`, the
    tuple on either side, `not` of one) holds on every supported Python; None when it is no
    such test or some supported Python decides it the other way."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = version_test(test.operand)
        return None if inner is None else not inner
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], _OPS):
        return None
    op: ast.cmpop = test.ops[0]
    left, right = test.left, test.comparators[0]
    if _version_info(right):  # `(3, 10) <= sys.version_info`: the same test turned round
        op, left, right = _turned(op), right, left
    bound = _ints(right)
    if not _version_info(left) or bound is None or len(bound) > _kept(left):
        return None  # `sys.version_info[:1] >= (3, 10)`: `(3,)` is shorter, so below, everywhere
    # Every supported version `v` is `OLDEST` or later: decided when `v op bound` holds for
    # all of them (`bound` at or below OLDEST, the test about "at least"), or for none.
    if isinstance(op, ast.GtE):
        return True if bound <= OLDEST else None
    if isinstance(op, ast.Gt):
        return True if bound < OLDEST else None
    if isinstance(op, ast.Lt):
        return False if bound <= OLDEST else None
    return False if bound < OLDEST else None  # `<=`


def _version_info(expr: ast.expr) -> bool:
    """`sys.version_info`, or a slice of it from its start (`sys.version_info[:2]`)."""
    if isinstance(expr, ast.Subscript):
        piece = expr.slice
        if not (isinstance(piece, ast.Slice) and piece.lower is None and piece.step is None):
            return False
        expr = expr.value
    return (
        isinstance(expr, ast.Attribute)
        and expr.attr == "version_info"
        and isinstance(expr.value, ast.Name)
        and expr.value.id == "sys"
    )


def _kept(expr: ast.expr) -> int:
    """How many leading fields of `sys.version_info` `expr` compares (all five unsliced,
    `[:2]` two); a slice not bounded by a constant keeps none that can be told."""
    if not isinstance(expr, ast.Subscript):
        return 5
    assert isinstance(expr.slice, ast.Slice)  # (`_version_info` took only such a slice)
    upper = expr.slice.upper
    if upper is None:
        return 5
    return (
        upper.value
        if isinstance(upper, ast.Constant) and type(upper.value) is int and upper.value >= 0
        else 0
    )


def _ints(expr: ast.expr) -> tuple[int, ...] | None:
    """A tuple of ints written out (`(3, 10)`)."""
    if not isinstance(expr, ast.Tuple) or not expr.elts:
        return None
    values = [e.value for e in expr.elts if isinstance(e, ast.Constant) and type(e.value) is int]
    return tuple(values) if len(values) == len(expr.elts) else None


def _turned(op: ast.cmpop) -> ast.cmpop:
    """`a op b` as `b op' a`."""
    return {ast.Gt: ast.Lt(), ast.GtE: ast.LtE(), ast.Lt: ast.Gt(), ast.LtE: ast.GtE()}[type(op)]
