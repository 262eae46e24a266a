"""MCPD002 and MCPD006 from `ast` spans: a parameter renamed where every use of it is plain.

libcst's fixer (`rename_parameter.rename`) renames the parameter and every name its scope
analysis links to it. Here the same set is found only when it cannot be in doubt: each
whole-word occurrence of the old name in the function's text (decorators, signature,
body, comments and strings included) must be the parameter itself or a plain name
(`x`, `x = ...`, `x.attr`, `f(x)`) directly in the function's own body. Anything else (a
nested function, class or comprehension that mentions it, a docstring or comment naming
it, `global`, `del`, an import, a string annotation) is left to libcst, and so is every
refusal: the new name is never present in the function at all (libcst refuses when it
is), and the MCPD002 call-by-keyword check is done as libcst does it, refusals included.
"""

from __future__ import annotations

import ast
import keyword
import re

from mcpdeps.lint_rules.fixes.ast_source import AstSource, Function, Unsure
from mcpdeps.resolver_core.diagnostics import Diagnostic

SUGGESTED = re.compile(r"\(did you mean '([A-Za-z_][A-Za-z0-9_]*)'\?\)")
"""The close name in MCPD002's message (identifiers are quoted with ' by repr)."""

NESTED = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)
"""Nodes with a scope of their own (their text must not mention the old name)."""


def rename_resolver_parameter(src: AstSource, d: Diagnostic) -> str | None:
    """MCPD002: the resolver parameter that misspells a tool argument takes its name."""
    found = SUGGESTED.search(d.message)
    if found is None:
        return None  # libcst's fixer refuses first thing, whatever the file holds
    arg, function = src.param_at(d)
    if called_with_keyword(src.tree, function.name, arg.arg):
        raise Unsure("called with the old name as a keyword")
    return renamed(src, arg, function, found.group(1))


def rename_parameter(src: AstSource, d: Diagnostic) -> str | None:
    """MCPD006: `_x` becomes `x`."""
    arg, function = src.param_at(d)
    return renamed(src, arg, function, arg.arg.lstrip("_"))


def called_with_keyword(tree: ast.AST, function: str, name: str) -> bool:
    """`function(..., name=...)` (or `x.function(...)`) anywhere in the module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else None
            )
            if called == function and any(k.arg == name for k in node.keywords):
                return True
    return False


def renamed(src: AstSource, arg: ast.arg, function: Function, new: str) -> str:
    """The file with `arg` and its plain uses renamed to `new`; `Unsure` for any other shape."""
    old = arg.arg
    if not new or not new.isidentifier() or keyword.iskeyword(new) or new == old:
        raise Unsure("not a name to rename to")
    first = function.decorator_list[0] if function.decorator_list else function
    region_start = src.index.starts[first.lineno - 1]
    region_end = src.end(function)
    region = src.text[region_start:region_end]
    if re.search(rf"\b{re.escape(new)}\b", region):
        raise Unsure("the new name is in the function already")
    if _dotted_import_of(src.tree, old):
        raise Unsure("`import old.sub` makes libcst see `old.sub` as one name")
    uses = [src.start(arg)]
    for statement in function.body:
        uses += _plain_uses(src, statement, old)
    occurrences = [region_start + m.start() for m in re.finditer(rf"\b{re.escape(old)}\b", region)]
    if sorted(uses) != occurrences:
        raise Unsure("the old name occurs in a shape not renamed here")
    text = src.text
    pieces, last = [], 0
    for at in occurrences:
        pieces += [text[last:at], new]
        last = at + len(old)
    return "".join(pieces) + text[last:]


def _plain_uses(src: AstSource, node: ast.AST, old: str) -> list[int]:
    """Offsets of `old` as a plain name in `node`, not looking into nested scopes, refusing
    multi-line f-strings (whose positions 3.11 may get wrong)."""
    found: list[int] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, NESTED):
            continue  # its uses are not counted: if it names `old`, the counts differ
        if isinstance(current, ast.JoinedStr) and current.lineno != current.end_lineno:
            raise Unsure("a multi-line f-string")
        if isinstance(current, ast.Name) and current.id == old:
            if not isinstance(current.ctx, (ast.Load, ast.Store)):
                raise Unsure("del")
            at = src.start(current)
            if src.text[at : at + len(old)] != old or src.end(current) != at + len(old):
                raise Unsure("positions do not match the text")
            found.append(at)
        stack.extend(ast.iter_child_nodes(current))
    return found


def _dotted_import_of(tree: ast.AST, old: str) -> bool:
    return any(
        isinstance(node, ast.Import) and any(a.name.startswith(old + ".") for a in node.names)
        for node in ast.walk(tree)
    )
