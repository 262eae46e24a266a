"""MCPD101 fix: lift a `Resolve` hidden under an outer `Annotated` back to the top level.

`Annotated[Annotated[T, Resolve(f)] | None, Field(...)]` hides the marker (the
SDK reads only top-level metadata), so the parameter becomes a model-visible
argument. The fix writes `Annotated[T, Resolve(f), Field(...)]`: the marker
is seen again, the outer metadata is kept, and the meaningless `| None` and
default go (a resolved parameter is always filled).
"""

from __future__ import annotations

import libcst as cst

from ...resolver_core.diagnostics import Diagnostic
from .annotations import annotated_with_resolve, unwrapped_resolve
from .cst_source import CstSource, last_name, reannotated_without_default

COMMA = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


def _lifted(outer: cst.Subscript) -> cst.Subscript | None:
    if last_name(outer.value) != "Annotated" or len(outer.slice) < 2:
        return None
    first = outer.slice[0].slice
    if not isinstance(first, cst.Index):
        return None
    inner = unwrapped_resolve(first.value) or annotated_with_resolve(first.value)
    if inner is None:
        return None
    elements = [*inner.slice, *outer.slice[1:]]
    fixed = [
        e if e.comma is not cst.MaybeSentinel.DEFAULT else e.with_changes(comma=COMMA) for e in elements[:-1]
    ]
    fixed.append(elements[-1].with_changes(comma=outer.slice[-1].comma))
    return outer.with_changes(slice=fixed)


def fix(source: CstSource, d: Diagnostic) -> cst.Module | None:
    param = source.param_at(d)
    if (
        param is None
        or param.annotation is None
        or not isinstance(param.annotation.annotation, cst.Subscript)
    ):
        return None
    lifted = _lifted(param.annotation.annotation)
    if lifted is None:
        return None
    return reannotated_without_default(source, param, lifted)
