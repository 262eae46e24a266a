"""MCPD006 fix: rename a tool parameter `_x` to `x`, and every use of it in the body.

`rename` is shared with MCPD002's fix (a resolver parameter misspelling a tool argument).

Uses libcst's scope analysis, so a nested function that reads the parameter is
renamed with it while one that binds its own `_x` is left alone. The fix is
refused, rather than guessed, when `x` already means something inside the
function (another parameter, a local, a global or builtin it reads), when the
name is declared `global`/`nonlocal`, or when nothing would be left of the name.
"""

from __future__ import annotations

import keyword

import libcst as cst
from libcst.metadata import ScopeProvider

from ...resolver_core.diagnostics import Diagnostic
from .cst_source import CstSource


class _Rename(cst.CSTTransformer):
    def __init__(self, targets: set[cst.Name], new: str) -> None:
        super().__init__()
        self.targets = targets
        self.new = new

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value=self.new) if original in self.targets else updated


def new_name(old: str) -> str | None:
    name = old.lstrip("_")
    return name if name.isidentifier() and not keyword.iskeyword(name) else None


def _names_used(function: cst.FunctionDef) -> set[str]:
    """Every name the function reads or binds; a keyword's name (`Stock(title=...)`) and an
    attribute's (`stock.title`) are labels of something else, so they do not count."""
    found: set[str] = set()
    labels: set[int] = set()

    class Collect(cst.CSTVisitor):
        def visit_Arg(self, node: cst.Arg) -> None:
            if node.keyword is not None:
                labels.add(id(node.keyword))

        def visit_Attribute(self, node: cst.Attribute) -> None:
            labels.add(id(node.attr))

        def visit_Name(self, node: cst.Name) -> None:
            if id(node) not in labels:
                found.add(node.value)

    function.visit(Collect())
    return found


def fix(source: CstSource, d: Diagnostic) -> cst.Module | None:
    param = source.param_at(d)
    return rename(source, param, new_name(param.name.value)) if param is not None else None


def rename(source: CstSource, param: cst.Param, new: str | None) -> cst.Module | None:
    """The module with `param` renamed to `new` in its function, or None when that is not safe."""
    function = source.function_of(param)
    if function is None or new is None or not new.isidentifier() or keyword.iskeyword(new):
        return None
    old = param.name.value
    if new in _names_used(function):
        return None
    scopes = source.wrapper.resolve(ScopeProvider)
    scope = scopes.get(param.name)
    if scope is None:
        return None
    targets: set[cst.Name] = set()
    for assignment in scope.assignments[old]:
        node = getattr(assignment, "node", None)
        if isinstance(node, cst.Param):
            node = node.name
        if not isinstance(node, cst.Name):
            return None  # bound by an import, a global/nonlocal declaration...: not a plain local
        targets.add(node)
        for access in assignment.references:
            if not isinstance(access.node, cst.Name):
                return None
            targets.add(access.node)
    return source.module.visit(_Rename(targets, new))
