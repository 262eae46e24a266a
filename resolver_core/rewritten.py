"""Functions whose signature a module rewrites at run time, so the source's is not the SDK's.

`fn.__annotations__["x"] = T`, `fn.__annotations__ = {...}` or `fn.__signature__ = ...`
after the `def`: the SDK reads the rewritten one when the tool is registered, so the
builder must not judge such a tool by what the `def` declares. Found from the text
alone; a module that never spells either attribute is not walked.
"""

from __future__ import annotations

import ast

from .source import ParsedModule


def rewritten_functions(module: ParsedModule) -> set[str]:
    """Names of the functions whose annotations or signature the module assigns."""
    found: set[str] = set()
    text = module.text or ""
    if module.tree is None or ("__annotations__" not in text and "__signature__" not in text):
        return found
    for node in ast.walk(module.tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            name = _rewritten_function(target)
            if name is not None:
                found.add(name)
    return found


def _rewritten_function(target: ast.expr) -> str | None:
    """`f.__annotations__[...]`, `f.__annotations__` or `f.__signature__` as an assignment target: `f`."""
    if isinstance(target, ast.Subscript):
        target = target.value
    if (
        isinstance(target, ast.Attribute)
        and target.attr in ("__annotations__", "__signature__")
        and isinstance(target.value, ast.Name)
    ):
        return target.value.id
    return None
