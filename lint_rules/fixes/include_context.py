"""MCPD105 fix: remove the deprecated `include_context=` argument of `Sample(...)`.

Leaving it out means `"none"`, the only value that is not deprecated. The
commas around the removed argument are rebuilt so trailing-comma and
one-argument-per-line layouts survive.
"""

from __future__ import annotations

import libcst as cst

from ...resolver_core.diagnostics import Diagnostic
from .cst_source import CstSource, last_name


def _without(call: cst.Call, target: cst.Arg) -> cst.Call:
    args = list(call.args)
    index = args.index(target)
    del args[index]
    if args and index == len(args):
        args[-1] = args[-1].with_changes(comma=target.comma)
    return call.with_changes(args=args)


def fix(source: CstSource, d: Diagnostic) -> cst.Module | None:
    for node in source.overlapping(cst.Call, d):
        assert isinstance(node, cst.Call)
        if last_name(node.func) != "Sample":
            continue
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "include_context":
                return source.replace(node, _without(node, arg))
    return None
