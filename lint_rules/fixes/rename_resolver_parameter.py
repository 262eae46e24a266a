"""MCPD002 fix: a resolver parameter that misspells a tool argument (`titel`) takes its name (`title`).

The rule puts the close name in its message ("did you mean 'title'?") only when the
parameter would be filled by name and one tool argument is a near miss; the rename is the
same scope-aware one as MCPD006's (`rename_parameter.rename`). Why it counts as safe: the
SDK refuses the server as it is, and the fix engine re-lints and drops the rename if another
tool using this resolver lacks the new name. Refused when the function is also called with
the old name as a keyword in its own file (`check_stock(titel=...)` would break).
"""

from __future__ import annotations

import libcst as cst

from ...resolver_core.diagnostics import Diagnostic
from .cst_source import CstSource
from .rename_parameter import rename
from .spans_rename import SUGGESTED


def fix(source: CstSource, d: Diagnostic) -> cst.Module | None:
    found = SUGGESTED.search(d.message)
    param = source.param_at(d)
    function = source.function_of(param) if param is not None else None
    if found is None or param is None or function is None:
        return None
    if _called_with_keyword(source, function.name.value, param.name.value):
        return None
    return rename(source, param, found.group(1))


def _called_with_keyword(source: CstSource, function: str, keyword: str) -> bool:
    """`function(..., keyword=...)` (or `x.function(...)`) anywhere in the module."""
    for node in source.nodes(cst.Call):
        assert isinstance(node, cst.Call)
        func = node.func
        name = (
            func.value
            if isinstance(func, cst.Name)
            else func.attr.value
            if isinstance(func, cst.Attribute)
            else None
        )
        if name == function and any(a.keyword is not None and a.keyword.value == keyword for a in node.args):
            return True
    return False
