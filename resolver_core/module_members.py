"""Loops over a module's namespace: the functions `inspect.getmembers(tools, inspect.isfunction)`
lists, the entries of `vars(tools).items()` (or `tools.__dict__.items()`) and of
`globals().items()` (or `getmembers(sys.modules[__name__], ...)`, the module listing itself),
which published servers filter by name before registering each one:

    for name, fn in inspect.getmembers(tools, inspect.isfunction):
        if name.endswith("_tool"):
            mcp.add_tool(fn)

The module is the project's, so what its namespace holds once imported is written in it: each
name its top-level statements bind to a `def` (or import from a project module's `def`), as a
row `(name, tools.name)` read where the loop is. `getmembers` sorts them by name; `vars()` and
`globals()` keep the order the names were first bound (a loop at module level over `globals()`
sees only the names bound above it). The loop's tests then leave out what they leave out
(`loop_filters.py`), as they do for a collection written out.

Followed only while every test in the loop's body reads the name alone (`name.startswith(...)`),
or the object only through `callable(fn)` (true of every row, and not told, so a row runs both
ways: kept). Any other test of the object (`getattr(fn, "_is_tool", False)`) is not told, and
reading every member through it would register helpers the run leaves out; those loops, and `vars()` or
`globals()` with no test at all (their entries hold modules and constants too), stay not
followed, as before. Classes, constants and external functions are no rows: `isfunction` leaves
the first two out, and an external function's signature is not read anyway; nor is a `def` a
library decorator turns into a cache or a property (`@functools.cache`), no function either.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Protocol

from .bindings import Binding, Defined, ModuleRef
from .function_marks import NOT_TOLD, mark_test, mark_truth
from .library_decorators import MEMOIZING, PROPERTIES
from .loop_entries import unwrapped
from .source import ParsedModule
from .symbols import Names, Scope
from .written_collections import Rows


class Listing(Protocol):
    """The values an outer loop variable takes, where they are written (`loop_rows.Listed`)."""

    @property
    def module(self) -> ParsedModule: ...
    @property
    def scope(self) -> Scope | None: ...
    @property
    def values(self) -> tuple[ast.expr, ...]: ...


_PREDICATES = frozenset({"inspect.isfunction"})
"""The `getmembers` predicates whose members are exactly the module's functions."""
_LISTING = frozenset({"getmembers", "vars", "globals", "__dict__"})
"""The words a loop over a namespace spells (`carriers._LISTING`: those listing another module's)."""
_NOT_FUNCTIONS = MEMOIZING | PROPERTIES
"""Library decorators handing back an object that is no function (a cache, a property)."""
_TESTS = (ast.If, ast.IfExp, ast.While, ast.comprehension)


def member_rows(
    names: Names,
    module: ParsedModule,
    stmt: ast.For | ast.AsyncFor,
    scope: Scope | None,
    outer: Mapping[str, Listing] | None = None,
) -> Rows | None:
    """The `(name, function)` rows the namespace `stmt` loops over yields, read in `stmt`'s module
    and scope; None when `stmt` loops over something else or its tests read more than the name.
    `outer`: the variables of the loops around it, `for module in (tools, more):` listing the
    modules whose namespaces an inner `getmembers(module, ...)` lists one after the other."""
    target = stmt.target
    if not _LISTING.intersection(_spelled(stmt.iter)):
        return None  # the common loop, told apart before any name is looked up
    if not (
        isinstance(target, ast.Tuple)
        and len(target.elts) == 2
        and all(isinstance(e, ast.Name) for e in target.elts)
    ):
        return None
    expr, method, counted = unwrapped(names, module, stmt.iter, scope)
    if isinstance(expr, ast.Attribute) and expr.attr == "__dict__":  # `tools.__dict__`: `vars(tools)`
        expr = ast.Call(ast.Name("vars", ast.Load()), [expr.value], [])
    if counted or not isinstance(expr, ast.Call):
        return None
    found = _namespaces(names, module, expr, method, scope, outer or {})
    if found is None:
        return None
    where, where_scope, spaces, sort = found
    value_name = target.elts[1].id  # type: ignore[attr-defined]
    tests = [n for s in stmt.body for n in ast.walk(s) if isinstance(n, _TESTS)]
    if any(_reads(test, value_name) for test in tests) or (not sort and not tests):
        return None
    marks = [c for t in tests for c in ast.walk(t) if isinstance(c, ast.Call) and mark_test(c, {value_name})]
    rows: list[ast.expr] = []
    for owner, base in spaces:
        before = stmt.lineno if base is None and scope is None else None
        members = _functions(names, owner, before)
        rows += [
            ast.copy_location(ast.Tuple([ast.Constant(name), _read(base, name)], ast.Load()), stmt.iter)
            for name in (sorted(members) if sort else members)
        ]
    read = [row.elts[1] for row in rows if isinstance(row, ast.Tuple)]
    for mark in marks:  # a function whose marks the source does not tell: the test may take it
        if any(mark_truth(names, (module, scope), mark, fn, (where, where_scope)) is NOT_TOLD for fn in read):
            return None
    return where, where_scope, tuple(rows)


Space = tuple[ParsedModule, "ast.expr | None"]
"""A module whose namespace is listed, and the expression naming it (None for `globals()`,
read as bare names at module level)."""


def _namespaces(
    names: Names,
    module: ParsedModule,
    expr: ast.Call,
    method: str | None,
    scope: Scope | None,
    outer: Mapping[str, Listing],
) -> tuple[ParsedModule, Scope | None, list[Space], bool] | None:
    """The modules whose namespaces `expr` lists, with the module and scope their names are
    read in, and whether the rows come sorted by name (`getmembers`)."""
    called = (
        names.canonical(module, expr.func, scope) if isinstance(expr.func, ast.Name | ast.Attribute) else None
    )
    if called == "inspect.getmembers" and method is None:
        keywords = {k.arg: k.value for k in expr.keywords}
        predicate = expr.args[1] if len(expr.args) == 2 else keywords.get("predicate")
        if not expr.args or len(expr.args) + len(keywords) != 2 or predicate is None:
            return None
        if names.canonical(module, predicate, scope) not in _PREDICATES:
            return None
        return _modules(names, module, expr.args[0], scope, outer, sort=True)
    if method != "items" or expr.keywords:
        return None
    if called == "builtins.vars" and len(expr.args) == 1:
        return _modules(names, module, expr.args[0], scope, outer, sort=False)
    if called == "builtins.globals" and not expr.args:
        return module, None, [(module, None)], False
    return None


def _modules(
    names: Names,
    module: ParsedModule,
    expr: ast.expr,
    scope: Scope | None,
    outer: Mapping[str, Listing],
    *,
    sort: bool,
) -> tuple[ParsedModule, Scope | None, list[Space], bool] | None:
    """The project modules `expr` names (`tools`, `app.tools`, or an outer loop's variable
    taking modules), each with the expression naming it."""
    if isinstance(expr, ast.Name) and expr.id in outer:
        listed = outer[expr.id]
        where, where_scope, values = listed.module, listed.scope, listed.values
    else:
        where, where_scope, values = module, scope, (expr,)
    spaces: list[Space] = []
    for value in values:
        if _own_entry(names, where, value, where_scope):  # `sys.modules[__name__]`: the module itself
            spaces.append((where, None))
            continue
        if not isinstance(value, ast.Name | ast.Attribute):
            return None
        symbol = names.resolve(where, value, where_scope)
        symbol = names.follow(symbol) if symbol is not None else None
        if not isinstance(symbol, ModuleRef):
            return None
        spaces.append((symbol.module, value))
    return where, where_scope, spaces, sort


def _own_entry(names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> bool:
    """Whether `expr` is `sys.modules[__name__]`: the module the loop is written in."""
    return (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.slice, ast.Name)
        and expr.slice.id == "__name__"
        and names.canonical(module, expr.value, scope) == "sys.modules"
    )


def _functions(names: Names, owner: ParsedModule, before: int | None) -> list[str]:
    """The names `owner`'s top-level statements bind to a function (a `def`, or an import of a
    project `def`), in the order first bound; only those bound above line `before` if given."""
    out: list[str] = []
    for name, binding in names.table(owner).items():
        first = _first(binding)
        if before is not None and first.line >= before:
            continue
        if _is_function(names, owner, name, binding):
            out.append(name)
    return out


def _first(binding: Binding) -> Binding:
    while binding.previous is not None:
        binding = binding.previous
    return binding


def _is_function(names: Names, owner: ParsedModule, name: str, binding: Binding) -> bool:
    """Whether `name` is bound to a project `def` whose decorators leave a function there
    (`@functools.cache` leaves a cache object, which `inspect.isfunction` refuses)."""
    if binding.kind == "def":
        where, node = owner, binding.node
    elif binding.kind == "import" and not binding.type_checking:
        symbol = names.follow(names.lookup(owner, name))
        if not isinstance(symbol, Defined):
            return False
        where, node = symbol.module, symbol.node
    else:
        return False
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    return not any(
        names.canonical(where, d.func if isinstance(d, ast.Call) else d) in _NOT_FUNCTIONS
        for d in node.decorator_list
    )


def listed_namespace(stmt: ast.For | ast.AsyncFor) -> str | None:
    """The bare name whose namespace `stmt` spells a loop over (`getmembers(module, ...)`,
    `vars(module).items()`, `module.__dict__.items()`, also in `list(...)`), its target two
    names: a variable or parameter the loop's rows depend on (`passed_members.py`); None
    otherwise. The spelling only: `member_rows` reads what it calls."""
    target, expr = stmt.target, stmt.iter
    if not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
        return None
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id in ("list", "sorted")
        and len(expr.args) == 1
    ):
        expr = expr.args[0]
    if not isinstance(expr, ast.Call):
        return None
    func = expr.func
    listed: ast.expr | None = None
    if isinstance(func, ast.Attribute) and func.attr == "items" and not expr.args:
        inner = func.value
        if isinstance(inner, ast.Attribute) and inner.attr == "__dict__":
            listed = inner.value
        elif isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "vars":
            listed = inner.args[0] if len(inner.args) == 1 else None
    elif (isinstance(func, ast.Name) and func.id == "getmembers") or (
        isinstance(func, ast.Attribute) and func.attr == "getmembers"
    ):
        listed = expr.args[0] if expr.args else None
    return listed.id if isinstance(listed, ast.Name) else None


def _spelled(expr: ast.expr) -> set[str]:
    """The names and attributes an expression spells."""
    return {
        n.id if isinstance(n, ast.Name) else n.attr
        for n in ast.walk(expr)
        if isinstance(n, ast.Name | ast.Attribute)
    }


def _read(base: ast.expr | None, name: str) -> ast.expr:
    """`tools.name` (or the bare `name` for `globals()`)."""
    return ast.Name(name, ast.Load()) if base is None else ast.Attribute(base, name, ast.Load())


def _reads(node: ast.AST, name: str) -> bool:
    """Whether a test reads `name` (the loop's value variable)."""
    inner = node.test if isinstance(node, ast.If | ast.IfExp | ast.While) else node
    parts = [inner] if not isinstance(node, ast.comprehension) else node.ifs
    called = {  # `callable(fn)`: true of every row (functions), not told, so both ways: kept;
        # `getattr(fn, "is_tool", False)`: a mark each row's decorators tell (`function_marks`)
        id(c.args[0])
        for p in parts
        for c in ast.walk(p)
        if isinstance(c, ast.Call) and (_is_callable_test(c) or mark_test(c, {name}))
    }
    return any(
        isinstance(n, ast.Name) and n.id == name and id(n) not in called for p in parts for n in ast.walk(p)
    )


def _is_callable_test(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id == "callable" and len(call.args) == 1
