"""Registrars handed to a helper that calls them: `_register_toolset("csv", csv.register_tools)`.

Servers load their toolsets through one helper, for its logging or its `try/except ImportError`:
`def _register_toolset(name, loader): loader(mcp)`, or `def load_all(mcp, loaders): for loader in
loaders: loader(mcp)`. A call of the helper passing a project function for that parameter (or a
list written out holding it) makes the helper's `loader(mcp)` a call of that function: its
registrations land on what that call passes (`reach.py`), as on a call written with the
function's own name. Every call of the parameter in the helper's body counts, for each function
any call of the helper passes.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from .bindings import Defined, Scope
from .signatures import function_params
from .source import ParsedModule
from .symbols import Names

FunctionDef = ast.FunctionDef | ast.AsyncFunctionDef
CallSite = tuple[ParsedModule, ast.Call, Scope | None]
Passing = tuple[CallSite, Defined]
"""A call walked with a name among its arguments, and the project function it calls."""


Handed = tuple[CallSite, CallSite, int, ast.expr]
"""A helper's call of its parameter (`loader(mcp)`, where the helper's body is), the call of the
helper passing the function it then calls (that call's run alone runs it so), and the index and
expression of the function among the values it passes in a list (0 and the argument alone)."""


class HandedRegistrars:
    """The calls of helpers' parameters standing for the functions the helpers' calls pass."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self._through: dict[int, tuple[CallSite, int, ast.expr]] = {}
        self._made: dict[tuple[int, int, int], ast.Call] = {}
        self._known: dict[int, tuple[int, list[CallSite]]] = {}
        self._spelt: dict[int, tuple[str, ...]] = {}
        """Per call of a helper, the names its arguments spell (read once)."""
        self._spelling: tuple[int, dict[str, list[Passing]]] = (-1, {})
        """The calls passing a name (`CallSites` walked), under each name their arguments spell,
        as of how many call sites were recorded (`passing` grows only with them). A function
        asked about is looked for among the calls spelling its name alone: most are spelt in
        none, and going through every call for each (a `helpers` 1,000 run asked 420 functions
        of about 320 calls each, 134,000 looks) found nothing."""

    def sites(self, passing: Iterable[Passing], fn: FunctionDef, recorded: int) -> list[CallSite]:
        """The calls of helpers' parameters that call `fn` (`handed_calls`), each one call object
        per call of the helper passing `fn`, so that its ways go through that call alone; read
        again only once more calls were `recorded` (`passing` grows with them)."""
        known = self._known.get(id(fn))
        if known is None or known[0] != recorded:
            spelling = self._spelling_of(passing, recorded).get(fn.name, [])
            made = [self._made_for(*handed) for handed in handed_calls(self.names, spelling, fn)]
            known = self._known[id(fn)] = (recorded, made)
        return known[1]

    def _spelling_of(self, passing: Iterable[Passing], recorded: int) -> dict[str, list[Passing]]:
        """`passing` under each name its calls' arguments spell, in its order (`_spelling`)."""
        if self._spelling[0] != recorded:
            spelling: dict[str, list[Passing]] = {}
            for each in passing:
                call = each[0][1]
                spelt = self._spelt.get(id(call))
                if spelt is None:
                    spelt = self._spelt[id(call)] = tuple(dict.fromkeys(_spelt(call)))
                for name in spelt:
                    spelling.setdefault(name, []).append(each)
            self._spelling = (recorded, spelling)
        return self._spelling[1]

    def through(self, call: ast.Call) -> tuple[CallSite, int, ast.expr] | None:
        """The call of a helper a call `sites` gave runs in (the one passing the function), with
        the index and expression of the function among the values it passes."""
        return self._through.get(id(call))

    def _made_for(self, inner: CallSite, outer: CallSite, index: int, passed: ast.expr) -> CallSite:
        key = (id(inner[1]), id(outer[1]), index)
        made = self._made.get(key)
        if made is None:
            written = inner[1]
            made = self._made[key] = ast.copy_location(
                ast.Call(written.func, written.args, written.keywords), written
            )
            self._through[id(made)] = (outer, index, passed)
        return inner[0], made, inner[2]


def handed_calls(names: Names, passing: Iterable[Passing], fn: FunctionDef) -> list[Handed]:
    """The calls of a helper's parameter (`loader(mcp)`) that call `fn`, because a call of the
    helper (among `passing`, the calls walked with a name among their arguments that spell
    `fn`'s name: cheap, before anything is resolved) passes `fn` for that parameter, alone or in
    a list or tuple written out in the call; each with that call of the helper."""
    found: list[Handed] = []
    seen: set[int] = set()
    for (module, call, scope), helper in passing:
        if id(call) in seen or not isinstance(helper.node, FunctionDef):
            continue
        seen.add(id(call))
        params = [p.arg for p, *_ in function_params(helper.node)]
        if helper.owner is not None and params:
            params = params[1:]  # a method called on an instance: `self` is not passed
        for param, arg in _passed(params, call):
            for index, each in enumerate(_members(arg)):
                if _is(names, module, scope, each, fn):
                    inner = Scope(helper.module, helper.node, helper.qualname, helper.scope)
                    found.extend(
                        ((helper.module, c, inner), (module, call, scope), index, each)
                        for c in _calls_of(helper.node, param)
                    )
    return found


def _spelt(call: ast.Call) -> Iterator[str]:
    """The names and attribute names written in the call's arguments."""
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        for n in ast.walk(arg):
            if isinstance(n, ast.Name):
                yield n.id
            elif isinstance(n, ast.Attribute):
                yield n.attr


def _passed(params: list[str], call: ast.Call) -> Iterator[tuple[str, ast.expr]]:
    """(parameter, argument) of each argument the call passes, by position or keyword."""
    if any(isinstance(a, ast.Starred) for a in call.args):
        return
    yield from zip(params, call.args, strict=False)
    yield from ((k.arg, k.value) for k in call.keywords if k.arg is not None)


def _members(arg: ast.expr) -> list[ast.expr]:
    """The argument, or each value of a list or tuple written out in the call."""
    if isinstance(arg, ast.List | ast.Tuple):
        return list(arg.elts)
    return [arg]


def _is(names: Names, module: ParsedModule, scope: Scope | None, expr: ast.expr, fn: FunctionDef) -> bool:
    if not isinstance(expr, ast.Name | ast.Attribute):
        return False
    symbol = names.resolve(module, expr, scope)
    symbol = names.follow(symbol) if symbol is not None else None
    return isinstance(symbol, Defined) and symbol.node is fn


def _calls_of(helper: FunctionDef, param: str) -> list[ast.Call]:
    """The calls in the helper's body of `param` (`loader(mcp)`), or of the variable of a loop
    over it (`for loader in loaders: loader(mcp)`); not those in the defs it holds."""
    callees = {param}
    found: list[ast.Call] = []
    todo: list[ast.AST] = list(helper.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, FunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if (
            isinstance(node, ast.For | ast.AsyncFor)
            and isinstance(node.iter, ast.Name)
            and node.iter.id in callees
            and isinstance(node.target, ast.Name)
        ):
            callees.add(node.target.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in callees:
            found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found
