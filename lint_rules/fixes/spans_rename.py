"""MCPD002 and MCPD006 from `ast` spans: a parameter renamed where every use of it is plain.

libcst's fixer (`rename_parameter.rename`) renames the parameter and every name its scope
analysis links to it. Here the same set is found only when it cannot be in doubt: every
whole-word occurrence of the old name in the function's text (decorators, signature,
body, comments and strings included) must be the parameter, a plain name in its body
(`x`, `x = ...`, `x.attr`, `f(x)`), a name a nested function, lambda, class or
comprehension only reads, or one that is certainly not the parameter: in the docstring, in
a comment, in the body of a nested `def` with its own parameter of that name. Anything
else (a nested scope binding it, `global`, `del`, an import, a keyword argument, another
string that may be an annotation) is left to libcst, and so is every refusal (the new name
anywhere in the function, the MCPD002 call by keyword), except MCPD002 without a
suggestion, which libcst's fixer refuses whatever the file holds.
"""

from __future__ import annotations

import ast
import keyword
import re

from ...resolver_core.diagnostics import Diagnostic
from .ast_source import FUNCTIONS, AstSource, Function, Unsure, all_args

SUGGESTED = re.compile(r"\(did you mean '([A-Za-z_][A-Za-z0-9_]*)'\?\)")
"""The close name in MCPD002's message (identifiers are quoted with ' by repr)."""


def rename_resolver_parameter(src: AstSource, d: Diagnostic) -> str | None:
    """MCPD002: the resolver parameter that misspells a tool argument takes its name."""
    found = SUGGESTED.search(d.message)
    if found is None:
        return None  # libcst's fixer refuses first thing, whatever the file holds
    arg, function = src.param_at(d)
    if called_with_keyword(src.tree, function.name, arg.arg):
        return None  # `rename_resolver_parameter._called_with_keyword`, on the same calls
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


def renamed(src: AstSource, arg: ast.arg, function: Function, new: str) -> str | None:
    """The file with `arg` and its plain uses renamed to `new`; None where libcst's fixer
    refuses, `Unsure` for any other shape."""
    old = arg.arg
    if not new.isidentifier() or keyword.iskeyword(new) or new == old:
        return None  # libcst refuses: no name, or one the function already uses
    first = function.decorator_list[0] if function.decorator_list else function
    region_start = src.index.starts[first.lineno - 1]
    region = src.text[region_start : src.end(function)]
    if _spells(src, function, new):
        return None  # libcst's `_names_used` has a name node spelt so
    spelt = {region_start + m.start() for m in re.finditer(rf"\b{re.escape(new)}\b", region)}
    if spelt - _labels(src, function, new):
        raise Unsure("the new name is in the function's text already")
    if _dotted_import_of(src.tree, old):
        raise Unsure("`import old.sub` makes libcst see `old.sub` as one name")
    uses = _Uses(src, old)
    for statement in function.body:
        uses.visit(statement, nested=False)
    uses.skip_docstring(function)
    occurrences = [region_start + m.start() for m in re.finditer(rf"\b{re.escape(old)}\b", region)]
    if "#" in region:
        uses.skipped += [at for at in occurrences if src.in_comment(at)]
    if sorted([src.start(arg), *uses.found]) != [at for at in occurrences if not uses.skips(at)]:
        raise Unsure("the old name occurs in a shape not renamed here")
    text = src.text
    pieces, last = [], 0
    for at in sorted([src.start(arg), *uses.found]):
        pieces += [text[last:at], new]
        last = at + len(old)
    return "".join(pieces) + text[last:]


class _Uses:
    """The plain uses of `old` that refer to the parameter, and the occurrences that do not.

    Nested functions, lambdas, classes and comprehensions that only read `old` read the
    parameter; one that binds it in any other way is `Unsure`, except a `def` taking its own
    parameter `old`, whose body is its own (its defaults, annotations and decorators are
    still evaluated here). Multi-line f-strings are refused (3.11 may misplace their names).
    """

    def __init__(self, src: AstSource, old: str) -> None:
        self.src, self.old = src, old
        self.found: list[int] = []
        self.skipped: list[int] = []
        """Occurrences that are not the parameter (a docstring, a comment, a shadowing `def`)."""
        self.spans: list[tuple[int, int]] = []

    def skips(self, at: int) -> bool:
        return at in self.skipped or any(start <= at < end for start, end in self.spans)

    def skip_docstring(self, function: Function) -> None:
        first = function.body[0]
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            self.spans.append((self.src.start(first), self.src.end(first)))

    def visit(self, node: ast.AST, nested: bool) -> None:
        stack = [(node, nested)]
        while stack:
            current, inner = stack.pop()
            if isinstance(current, FUNCTIONS):
                stack += [(part, inner) for part in _evaluated_outside(current)]
                if self.old in (a.arg for a in all_args(current.args)):
                    self._shadowed(current)
                else:
                    stack += [(statement, True) for statement in current.body]
                continue
            if isinstance(current, ast.Lambda):
                if self.old in (a.arg for a in all_args(current.args)):
                    raise Unsure("a lambda taking the name")
                stack += [(part, inner) for part in _evaluated_outside(current)]
                stack.append((current.body, True))
                continue
            if isinstance(current, ast.ClassDef):
                outside = [*current.decorator_list, *current.bases, *current.keywords]
                stack += [(part, inner) for part in outside]
                stack += [(statement, True) for statement in current.body]
                continue
            if isinstance(current, COMPREHENSIONS):
                generators = current.generators
                stack.append((generators[0].iter, inner))  # the first iterable is evaluated here
                parts = [*(g.target for g in generators), *(g.iter for g in generators[1:])]
                parts += [i for g in generators for i in g.ifs] + _elements(current)
                stack += [(part, True) for part in parts]
                continue
            if isinstance(current, ast.JoinedStr) and current.lineno != current.end_lineno:
                raise Unsure("a multi-line f-string")
            if isinstance(current, ast.Name) and current.id == self.old:
                self._name(current, inner)
            stack += [(child, inner) for child in ast.iter_child_nodes(current)]

    def _name(self, node: ast.Name, nested: bool) -> None:
        if not isinstance(node.ctx, ast.Load) and (nested or not isinstance(node.ctx, ast.Store)):
            raise Unsure("bound in a nested scope, or deleted")
        at = self.src.start(node)
        if self.src.text[at : at + len(self.old)] != self.old or self.src.end(node) != at + len(self.old):
            raise Unsure("positions do not match the text")
        self.found.append(at)

    def _shadowed(self, function: Function) -> None:
        """A nested `def` with its own parameter `old`: that name and its body are not ours."""
        self.skipped += [self.src.start(a) for a in all_args(function.args) if a.arg == self.old]
        self.spans.append((self.src.start(function.body[0]), self.src.end(function)))


COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _elements(node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp) -> list[ast.expr]:
    return [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]


def _evaluated_outside(node: Function | ast.Lambda) -> list[ast.expr]:
    """What a `def` or `lambda` evaluates in the scope around it: decorators, defaults, annotations."""
    args = node.args
    parts: list[ast.expr] = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
    if isinstance(node, FUNCTIONS):
        parts += node.decorator_list
        parts += [a.annotation for a in all_args(args) if a.annotation is not None]
        parts += [node.returns] if node.returns is not None else []
    return parts


def _spells(src: AstSource, function: Function, name: str) -> bool:
    """A parameter or a name spelt `name` anywhere in the `def` (decorators included): libcst
    has a `Name` node for each (the text is checked: `ast` normalises identifiers, libcst not)."""
    for node in ast.walk(function):
        spelt = node.id if isinstance(node, ast.Name) else node.arg if isinstance(node, ast.arg) else None
        if spelt == name and src.text[src.start(node) :].startswith(name):
            return True
    return False


def _labels(src: AstSource, function: Function, name: str) -> set[int]:
    """Where `name` is a keyword's (`Stock(title=...)`) or an attribute's (`stock.title`) label:
    not a name of the function's scope, so libcst's fixer renames around it (`_names_used`)."""
    found: set[int] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.keyword) and node.arg == name:
            found.add(src.start(node))
        elif isinstance(node, ast.Attribute) and node.attr == name:
            found.add(src.end(node) - len(name))
    return found


def _dotted_import_of(tree: ast.AST, old: str) -> bool:
    return any(
        isinstance(node, ast.Import) and any(a.name.startswith(old + ".") for a in node.names)
        for node in ast.walk(tree)
    )
