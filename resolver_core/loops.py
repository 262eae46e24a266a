"""What the variables of a `for` loop take, when the source lists the values.

Real servers register their tools in loops: over a tuple written in place (`for fn in (a, b):`),
over a collection named at module level, often in another module (`ALL_TOOLS = [a, b]`,
`TOOLS = {"notes_list": list_notes}` then `for name, fn in TOOLS.items():`), or over pairs
(`for name, fn in (("a", f), ("b", g)):`). The SDK registers each value, so each one is a
registration site; a loop whose values are computed (`inspect.getmembers(...)`, a list filled
by a decorator at run time) is not guessed: the caller notes it as not followed.

`EnclosingLoops` is what a registration scan (`registrations.py`) keeps of the loops around the
statement it is at: it enters and leaves them with the scan, and turns the function a
registration call passes (`mcp.add_tool(fn)`) into the functions the loop variable takes.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager

from .joined_lists import MAX_JOINS, elements_of, joined_rows
from .loop_aliases import LoopAliases, in_place
from .loop_collectors import Collector, collector_of_loop
from .loop_entries import (
    Part,
    Passed,
    PassedLoop,
    numbered,
    part_of,
    passed_of,
    passed_variables,
    picked,
    unwrapped,
)
from .loop_names import named_after
from .loop_sources import fetched_by_name, held_list
from .loop_zips import zipped_rows
from .prefilter import holds
from .records import record
from .source import ParsedModule
from .symbols import Element, Names, Scope
from .written_collections import SEQUENCES, Rows, written_collection

LiteralLoop = tuple[str | tuple[str, ...], list[ast.expr]]
"""`for m in (a, b):` as `("m", [a, b])`: a loop over values written in place, and its variable;
`for name, fn in PAIRS:` as `(("name", "fn"), [row, ...])`, each row a tuple unpacked in step."""


def literal_loop(stmt: ast.stmt) -> LiteralLoop | None:
    """`for fn in (a, b, c):` — the loop variable and the expressions it takes, when written out."""
    if (
        isinstance(stmt, ast.For | ast.AsyncFor)
        and isinstance(stmt.target, ast.Name)
        and isinstance(stmt.iter, ast.Tuple | ast.List | ast.Set)
    ):
        return stmt.target.id, list(stmt.iter.elts)
    return None


def listed_loop(
    names: Names, module: ParsedModule, stmt: ast.stmt, scope: Scope | None
) -> LiteralLoop | None:
    """`literal_loop`, or `for m in MODULES:` where `MODULES` (or `tools.MODULES`) is bound
    once, at a module's top level, to values written out (`MODULES = [notes, admin]`).

    Written in this module, the values are read where the loop is, as if written in place;
    written in another (`from app.tools import TOOL_MODULES`, a package `__init__` listing
    its modules), each is an `Element` of the collection, whose names are read where it is
    written: the SDK registers what each one registers, whichever module lists them."""
    loop = literal_loop(stmt)
    if loop is not None or not isinstance(stmt, ast.For | ast.AsyncFor):
        return loop
    if not isinstance(stmt.target, ast.Name) or isinstance(stmt.iter, ast.Call):
        return _unpacked(names, module, stmt, scope)
    if not isinstance(stmt.iter, ast.Name | ast.Attribute):
        return None
    found = written_collection(names, module, stmt.iter, scope)
    if found is None or found[1] is not None:
        return None
    where, _, listed = found
    if isinstance(listed, ast.Dict):  # `for name in REGISTRARS:` takes its keys
        return _unpacked(names, module, stmt, scope)
    if where is module:  # (a class attribute `Kit.MODULES` of this module is not followed)
        return (stmt.target.id, list(listed.elts)) if isinstance(stmt.iter, ast.Name) else None
    return stmt.target.id, [
        Element(stmt.iter, index, where, value, None) for index, value in enumerate(listed.elts)
    ]


def _unpacked(
    names: Names, module: ParsedModule, stmt: ast.For | ast.AsyncFor, scope: Scope | None
) -> LiteralLoop | None:
    """`for feature, registrar in REGISTRARS.items():` (or `.values()`, or rows written out
    unpacked into names) over a collection this module or another writes out: the
    variables and the rows, as `listed_loop` reads them (another module's as `Element`s)."""
    found = rows_of(names, module, stmt.iter, scope)
    target = stmt.target
    if found is None:
        return None
    where, where_scope, rows = found
    if where is not module:
        collection = unwrapped(names, module, stmt.iter, scope)[0]
        rows = tuple(elements_of(collection, where, where_scope, row) for row in rows)
    if isinstance(target, ast.Name):
        return target.id, list(rows)
    if not isinstance(target, ast.Tuple | ast.List) or not all(
        isinstance(row, SEQUENCES) and len(row.elts) == len(target.elts) for row in rows
    ):
        return None
    return tuple(t.id if isinstance(t, ast.Name) else "" for t in target.elts), list(rows)


def listing_name(func: ast.expr) -> str | None:
    """`REGISTRARS` for `REGISTRARS[0]` or `features.TOOL_MODULES[0].register` (`Element`s): the
    name of the other module's collection a call through a loop variable was made from."""
    value = func.value if isinstance(func, ast.Attribute) else func
    collection = value.value if isinstance(value, Element) else None
    if isinstance(collection, ast.Attribute):
        return collection.attr
    return collection.id if isinstance(collection, ast.Name) else None


def written_where(func: ast.expr, module: ParsedModule) -> tuple[ParsedModule, ast.expr]:
    """The module whose names a call's function is read with, and that function as written
    there: `TOOL_MODULES[0].register` is `alpha.register` of the list's module (`Element`),
    any other function is itself, in `module`. Told before the function is resolved: the
    imports it names (`Confined.outside`) are that module's."""
    value = func.value if isinstance(func, ast.Attribute) else func
    if not isinstance(value, Element):
        return module, func
    if value is func:
        return value.module, value.written
    assert isinstance(func, ast.Attribute)
    return value.module, ast.Attribute(value.written, func.attr, ast.Load())


def in_loop_place(func: ast.expr, loops: Sequence[LiteralLoop]) -> list[ast.expr]:
    """What a call through a loop variable calls: `m.register` inside `for m in (a, b):` is
    `a.register`, then `b.register` (innermost loop first, a value naming an outer loop's
    variable taking that loop's values too); `[func]` when it calls through none."""
    attr, base = (func.attr, func.value) if isinstance(func, ast.Attribute) else (None, func)
    for at in range(len(loops) - 1, -1, -1):
        name, values = loops[at]
        if not isinstance(base, ast.Name) or base.id not in (name if isinstance(name, tuple) else (name,)):
            continue
        if isinstance(name, tuple):  # the variable's place in each row (`for _, fn in PAIRS:`)
            index = name.index(base.id)
            values = [v.elts[index] for v in values if isinstance(v, SEQUENCES)]
        placed = (v if attr is None else ast.Attribute(v, attr, ast.Load()) for v in values)
        return [each for value in placed for each in in_loop_place(value, loops[:at])]
    return [func]


def calls_on_lines(
    tree: ast.AST,
    lines: list[int] | None,
    loop_of: Callable[[ast.stmt], LiteralLoop | None] = literal_loop,
) -> Iterator[tuple[ast.Call, list[LiteralLoop]]]:
    """The calls of `tree` in `ast.walk` order, skipping the statements that hold none of
    `lines` (all of them when `lines` is None), each with the loops around it whose values
    `loop_of` reads (`literal_loop`: written in place; `listed_loop`: or bound to a name),
    outermost first (`in_loop_place`). A def, lambda or class body starts afresh: it runs when
    called, not in the loop that defines it."""
    todo: deque[tuple[ast.AST, list[LiteralLoop]]] = deque([(tree, [])])
    while todo:
        node, around = todo.popleft()
        if isinstance(node, ast.Call):
            yield node, around
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            around = []
        loop = loop_of(node) if isinstance(node, ast.stmt) else None
        for field, value in ast.iter_fields(node):
            inside = [*around, loop] if loop is not None and field == "body" else around
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST) and (
                    lines is None or not isinstance(child, ast.stmt) or holds(child, lines)
                ):
                    todo.append((child, inside))


@record
class Listed:
    """The values one loop variable takes, in order, and where they are written (to resolve them)."""

    module: ParsedModule
    scope: Scope | None
    values: tuple[ast.expr, ...]
    loop: ast.For | ast.AsyncFor
    """The loop that binds the variable: two variables of one loop take their values in step."""

    def part(self, names: Names, part: Part) -> Listed | None:
        """`spec["func"]` for each `{"func": f, "name": "x"}` the variable takes, `entry.function`
        for each `ToolEntry(f, "x")` (`loop_entries.py`); None when one of them does not tell."""
        values = picked(names, self.module, self.scope, self.values, part)
        return None if values is None else Listed(self.module, self.scope, values, self.loop)


def _listed_loop(
    names: Names, module: ParsedModule, stmt: ast.stmt, scope: Scope | None, outer: Mapping[str, Listed]
) -> dict[str, Listed]:
    """Each variable of `stmt` (a `for` loop) -> the values it takes; empty when they are not
    listed. `outer` are the variables of the loops around it (`for group in (A, B): for fn in
    group:` takes the values of `A`, then of `B`)."""
    if not isinstance(stmt, ast.For | ast.AsyncFor):
        return {}
    if isinstance(stmt.iter, ast.Name) and stmt.iter.id in outer:
        found = _flattened(names, outer[stmt.iter.id])
    else:  # a collection written out, or a list `__init__` stores (`for fn in self.tools:`)
        found = rows_of(names, module, stmt.iter, scope) or held_list(module, stmt.iter, scope)
    if found is None:
        return {}
    where, where_scope, rows = found
    columns = _unpacked_rows(stmt.target, rows)
    if columns is None:
        return {}
    return {name: Listed(where, where_scope, values, stmt) for name, values in columns.items()}


def _unpacked_rows(target: ast.expr, rows: Sequence[ast.expr]) -> dict[str, tuple[ast.expr, ...]] | None:
    """Each name of a loop target -> the value it takes from each row, unpacked as Python does,
    nested targets too (`for name, (fn, _doc) in TOOLS.items():`); None when a row is not
    written out to the target's shape."""
    if isinstance(target, ast.Name):
        return {target.id: tuple(rows)}
    if not isinstance(target, ast.Tuple | ast.List):
        return None
    width = len(target.elts)
    if not all(isinstance(row, SEQUENCES) and len(row.elts) == width for row in rows):
        return None
    out: dict[str, tuple[ast.expr, ...]] = {}
    for i, part in enumerate(target.elts):
        inner = _unpacked_rows(part, [row.elts[i] for row in rows])  # type: ignore[attr-defined]
        if inner is None:
            return None
        out.update(inner)
    return out


def _flattened(names: Names, group: Listed) -> tuple[ParsedModule, Scope | None, tuple[ast.expr, ...]] | None:
    """The values of each collection an outer loop variable takes, one after the other (all
    written in one module, to be resolved there)."""
    rows: list[ast.expr] = []
    where: tuple[ParsedModule, Scope | None] | None = None
    for value in group.values:
        found = rows_of(names, group.module, value, group.scope)
        if found is None or (where is not None and where != found[:2]):
            return None
        where = found[:2]
        rows += found[2]
    return (*where, tuple(rows)) if where is not None else None


def rows_of(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None, joins: int = 0
) -> Rows | None:
    """The values iterating `expr` yields, where they are written; None when not written out.
    `list(...)`, `tuple(...)` and `enumerate(...)` of one are read through (`unwrapped`), and
    `zip(...)` of several (`loop_zips.py`), and the collections a list unpacks
    (`[*NOTE_TOOLS, *TASK_TOOLS]`, `joined_lists.py`)."""
    expr, method, counted = unwrapped(names, module, expr, scope)
    zipped = zipped_rows(names, module, expr, scope, rows_of)
    if zipped is not None:
        return (*zipped[:2], numbered(zipped[2])) if counted else zipped
    found = written_collection(names, module, expr, scope)
    if found is None:
        return None
    where, where_scope, node = found
    if isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            return None  # `{**BASE, ...}`: part of it is elsewhere
        keys = [key for key in node.keys if key is not None]
        rows: tuple[ast.expr, ...] = tuple(node.values if method == "values" else keys)
        if method == "items":
            rows = tuple(
                ast.Tuple(elts=[k, v], ctx=ast.Load()) for k, v in zip(keys, node.values, strict=True)
            )
    elif method is not None or (joins >= MAX_JOINS and any(isinstance(e, ast.Starred) for e in node.elts)):
        return None
    else:
        joined = joined_rows(
            node.elts,
            where,
            where_scope,
            lambda at, value, inner: rows_of(names, at, value, inner, joins + 1),
        )
        if joined is None:
            return None
        rows = joined
    return where, where_scope, numbered(rows) if counted else rows


def _unlisted_variables(stmt: ast.stmt) -> tuple[str, ...]:
    """`for fn in TOOLS:` / `for name, fn in SPECS:` over values not written out: the loop
    variables, whose values are unknown."""
    if not isinstance(stmt, ast.For | ast.AsyncFor):
        return ()
    return tuple(  # nested ones too (`for name, (fn, doc) in ...:`)
        t.id for t in ast.walk(stmt.target) if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)
    )


def _in_body(loop: ast.For | ast.AsyncFor, node: ast.expr) -> bool:
    """Whether `node` is written in the body of `loop` (not its `else:`, which runs when the
    loop takes no value)."""
    if not loop.body or not hasattr(node, "lineno"):
        return False
    last = loop.body[-1]
    return loop.body[0].lineno <= node.lineno <= (last.end_lineno or last.lineno)


Named = tuple[ParsedModule, ast.expr | None, Scope | None]
"""A registration's `name=` expression, with the module and scope to read it in."""
Landing = tuple[ast.expr, ParsedModule, Scope | None, Named]
"""A function a registration call registers, with the module and scope it is written in, and
its `name=` expression with the module and scope to read that in."""


class EnclosingLoops:
    """The `for` loops around the statement a registration scan is at, and what their
    variables take: listed values, nothing known (`for fn in inspect.getmembers(...)`), or
    whatever a collecting decorator fills the list with."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self._listed: dict[str, Listed] = {}
        """Variables of the enclosing loops whose values the source lists -> those values."""
        self._opaque: dict[str, ast.For | ast.AsyncFor] = {}
        """Variables of the enclosing loops over values not written out -> their loop."""
        self._collected: dict[str, Collector] = {}
        """Variables of loops over a list a decorator fills (`for fn in TOOLS:` with `@tool`)."""
        self._passed: dict[str, PassedLoop] = {}
        """Variables of loops over a parameter (`for entry in entries:`): what calls pass."""
        self.aliases = LoopAliases()
        """Names the loops' bodies bind to an expression of their variables (`w = f`)."""
        self._narrowed: dict[int, Callable[[ast.expr], frozenset[int] | None]] = {}
        """Per loop (by id) whose body's tests or `break` leave some values out of some
        expressions: the places of the values reaching one (`loop_filters.narrowed`)."""
        self._breaking: set[int] = set()
        """The loops (by id) one of whose values certainly `break`s: their `else:` never runs."""

    @contextmanager
    def entered(self, module: ParsedModule, stmt: ast.stmt, scope: Scope | None) -> Iterator[None]:
        """While the scan is inside `stmt`'s blocks: its loop variables as `stmt` binds them (a
        statement that is no loop binds none); afterwards, the outer loops' again."""
        loop = _listed_loop(self.names, module, stmt, scope, self._listed)
        outer = {name: self._listed[name] for name in loop if name in self._listed}
        self._listed.update(loop)
        if loop and isinstance(stmt, ast.For | ast.AsyncFor):
            from .loop_filters import narrowed  # (which reads collections through this module)

            first = next(iter(loop.values()))
            columns = {name: listed.values for name, listed in loop.items()}
            where = (first.module, first.scope)
            found = narrowed(self.names, module, stmt, scope, columns, where, self._breaking)
            if found is not None:
                self._narrowed[id(stmt)] = found
        passed = passed_variables(self.names, module, stmt, scope) if not loop else {}
        outer_passed = {name: self._passed[name] for name in passed if name in self._passed}
        self._passed.update(passed)
        opaque = _unlisted_variables(stmt) if not loop and not passed else ()
        collector = collector_of_loop(self.names, module, stmt, scope) if opaque else None
        collected = None
        if collector is not None:  # `for fn in TOOLS:` over a list `@tool` fills: followed
            collected, opaque = opaque[0], ()
            self._collected[collected] = collector
        if isinstance(stmt, ast.For | ast.AsyncFor):
            self._opaque.update(dict.fromkeys(opaque, stmt))
        variables = {*self._listed, *self._opaque, *self._passed, *self._collected}
        try:
            with self.aliases.entered(stmt, variables):
                yield
        finally:
            for name in loop:
                del self._listed[name]
            self._narrowed.pop(id(stmt), None)
            self._breaking.discard(id(stmt))
            self._listed.update(outer)
            for name in opaque:
                del self._opaque[name]
            if collected is not None:
                del self._collected[collected]
            for name in passed:
                del self._passed[name]
            self._passed.update(outer_passed)

    def passed(
        self, fn: ast.expr | ast.FunctionDef | ast.AsyncFunctionDef, name: ast.expr | None
    ) -> Passed | None:
        """A registration's function read from a loop over a parameter (`passed_loops.py`)."""
        return passed_of(self._passed, fn, name) if self._passed else None

    def breaks(self, stmt: ast.stmt) -> bool:
        """Whether `stmt`, a loop the scan is inside, certainly `break`s for one of its listed
        values (`for fn in (a, b): if fn is a: break`): its `else:` block never runs."""
        return id(stmt) in self._breaking

    def unlisted(self, fn: ast.expr) -> ast.For | ast.AsyncFor | None:
        """The loop over values the source does not list whose variable `fn` is, or names
        through an alias (`attr = getattr(module, name)` in `for name in dir(module):`) and no
        listed variable beside it."""
        named = [n.id for n in ast.walk(self.aliases.unaliased(fn)) if isinstance(n, ast.Name)]
        if any(name in self._listed for name in named):
            return None
        return next((self._opaque[name] for name in named if name in self._opaque), None)

    def each(
        self, module: ParsedModule, scope: Scope | None, fn: ast.expr, name: ast.expr | None
    ) -> list[Landing]:
        """`for fn in TOOLS: mcp.add_tool(fn)` registers each listed function, named in step
        (`for name, fn in SPECS.items(): mcp.add_tool(fn, name=name)`): each function with the
        module and scope it is written in, and its `name=` expression with where to read it."""
        if any(not listed.values and _in_body(listed.loop, fn) for listed in self._listed.values()):
            return []  # in `for _ in ():` (an empty collection written there): never run
        collector = self._collected.get(fn.id) if isinstance(fn, ast.Name) else None
        if collector is not None:  # each function the collector is applied to (`reach.py`)
            inner = Scope(collector.module, collector.function, collector.function.name, None)
            return [(collector.parameter, collector.module, inner, (module, name, scope))]
        fetched = fetched_by_name(self.names, module, scope, fn, self._listed)
        if fetched is not None:  # `getattr(tools, name)` for each name of `tools.__all__`
            return [(value, module, scope, (module, name, scope)) for value in fetched]
        written, part = part_of(fn)
        placed = part is None and not isinstance(fn, ast.Name)  # `make_wrapper(f)`, each in its place
        variable = self._driving(fn) if placed else written
        listed = self._listed.get(variable.id) if isinstance(variable, ast.Name) else None
        if part is not None and listed is not None:  # `spec["func"]`, `entry.function` of each
            listed = listed.part(self.names, part)
        names = self._names(name)
        if listed is None or not isinstance(variable, ast.Name):
            looped = {*self._listed, *self._opaque, *self._passed, *self._collected}
            if any(isinstance(n, ast.Name) and n.id in looped for n in ast.walk(fn)):
                names = None  # (a function of loop variables not listed: read as written)
            return [(fn, module, scope, named) for named in self._named(fn, names, (module, name, scope))]
        narrowed = self._narrowed.get(id(listed.loop))
        reached = narrowed(fn) if narrowed is not None else None  # `if fn is not skip:`, `break`
        return [
            (
                *(
                    (value, listed.module, listed.scope)
                    if not placed
                    else (self._placed(module, fn, listed.loop, i), module, scope)
                ),
                named,
            )
            for i, value in enumerate(listed.values)
            if reached is None or i in reached
            for named in (
                [(listed.module, names.values[i], listed.scope)]
                if names is not None and names.loop is listed.loop
                else self._named(fn, names, (module, named_after(name, variable.id, value), scope))
            )
        ]

    def _names(self, name: ast.expr | None) -> Listed | None:
        """The listed values a registration's `name=` takes (`name=n`, `name=spec["name"]`)."""
        name_variable, name_part = part_of(name) if name is not None else (None, None)
        names = self._listed.get(name_variable.id) if isinstance(name_variable, ast.Name) else None
        if name_part is not None and names is not None:
            names = names.part(self.names, name_part)
        return names

    def _named(self, fn: ast.expr, names: Listed | None, written: Named) -> list[Named]:
        """The names one function is registered under: each one a loop of its own lists (`for
        n in ("a", "b"): mcp.add_tool(good, name=n)` registers `good` as `a`, then as `b`; a
        name the loop's tests leave out, never), or the one `written` when no loop names it."""
        if names is None:
            return [written]
        narrowed = self._narrowed.get(id(names.loop))
        reached = narrowed(fn) if narrowed is not None else None
        return [
            (names.module, value, names.scope)
            for i, value in enumerate(names.values)
            if reached is None or i in reached
        ]

    def _driving(self, fn: ast.expr) -> ast.expr | None:
        """The listed variable an expression of loop variables (`make_wrapper(f)`) takes its
        values from: one of them when all it names are of one loop over listed values."""
        named = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id in self._listed]
        unknown = any(
            isinstance(n, ast.Name) and (n.id in self._opaque or n.id in self._passed) for n in ast.walk(fn)
        )
        loops = {id(self._listed[n.id].loop) for n in named}
        return named[0] if len(loops) == 1 and not unknown else None

    def _placed(self, module: ParsedModule, fn: ast.expr, loop: ast.For | ast.AsyncFor, i: int) -> ast.expr:
        """`fn` with the `i`-th value of each variable of `loop` in its place, another module's
        read where it is written (`Element`)."""
        return in_place(
            fn,
            {
                name: each.values[i]
                if each.module is module
                else Element(each.loop.iter, i, each.module, each.values[i], each.scope)
                for name, each in self._listed.items()
                if each.loop is loop
            },
        )
