"""MCPD112 fix (unsafe): the tool's `ctx.elicit(...)` becomes a resolver returning `Elicit(...)`.

The codemod is `mcpdeps migrate`'s (`lint_rules.migration.questions`), applied to the one
tool that asks: its answer becomes a resolved parameter, so the SDK asks on both protocol
generations. Unsafe because the question is then asked before the body runs, and a
declined answer read only as `.data` aborts the call: offered with `--unsafe-fixes` only
(its rule's `FIX` is unsafe). No fix when the question cannot move (after a side effect, in a loop, in a
resolver or a helper): the codemod leaves those to the user and so does the fix.
"""

from __future__ import annotations

import libcst as cst

from ...resolver_core.diagnostics import Diagnostic
from ..migration.imports import with_imports
from ..migration.names import tool_decorator
from ..migration.pipeline import CONTEXT_IMPORTS, QuestionsPass
from .cst_source import CstSource


def fix(source: CstSource, d: Diagnostic) -> cst.Module | None:
    calls = [c for c in source.overlapping(cst.Call, d) if isinstance(c, cst.Call)]
    call = next(
        (c for c in reversed(calls) if isinstance(c.func, cst.Attribute) and c.func.attr.value == "elicit"),
        None,
    )
    function = source.function_of(call) if call is not None else None
    if function is None or tool_decorator(function) is None:
        return None
    questions = QuestionsPass(source.module, only=function)
    module = questions.run()
    if call not in questions.moved:
        return None
    return with_imports(module, questions.imports, CONTEXT_IMPORTS)
