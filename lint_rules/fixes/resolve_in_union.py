"""MCPD003 fix: `Annotated[T, Resolve(f)] | None = None` becomes `Annotated[T, Resolve(f)]`.

A resolved parameter is always filled by its resolver, so the `| None` (or
`Optional[...]`, `Union[..., None]`) and the default carry no meaning; the SDK
refuses the wrapped form. Other wrappers (`list[Annotated[...]]`) change what
the tool receives, so they are left to the user.
"""

from __future__ import annotations

import libcst as cst

from ...resolver_core.diagnostics import Diagnostic
from .annotations import unwrapped_resolve
from .cst_source import CstSource, reannotated_without_default


def fix(source: CstSource, d: Diagnostic) -> cst.Module | None:
    param = source.param_at(d)
    if param is None or param.annotation is None:
        return None
    inner = unwrapped_resolve(param.annotation.annotation)
    if inner is None:
        return None
    return reannotated_without_default(source, param, inner)
