"""MCPD111 fix: drop the default of a resolved parameter (the resolver's value always wins)."""

from __future__ import annotations

import libcst as cst

from ...resolver_core.diagnostics import Diagnostic
from .annotations import annotated_with_resolve
from .cst_source import CstSource, without_default


def fix(source: CstSource, d: Diagnostic) -> cst.Module | None:
    param = source.param_at(d)
    if param is None or param.default is None or param.annotation is None:
        return None
    if annotated_with_resolve(param.annotation.annotation) is None:
        return None
    changed = without_default(source.function_of(param), param)
    return source.replace(param, changed) if changed is not None else None
