"""What the variables of the `for` loops around a registration take, as the registration scan
reads them.

`EnclosingLoops` is what a registration scan (`registrations.py`, `caller_loops.py`) keeps of the
loops around the statement it is at: it enters and leaves them with the scan, and turns the
function a registration call passes (`mcp.add_tool(fn)`) into the functions the loop variable
takes: values written out (`loop_rows.py`), read through the loop's tests and `break`s
(`loop_filters.py`), over a list a collecting decorator fills (`loop_collectors.py`), over a
parameter its callers fill (`passed_loops.py`), or not known (the caller notes it as not
followed).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .loop_aliases import LoopAliases, in_place
from .loop_collectors import Collector, by_own_name, collector_of_loop
from .loop_entries import Passed, PassedLoop, part_of, passed_of, passed_variables
from .loop_filters import narrowed
from .loop_names import named_after
from .loop_rows import Listed, listed_variables
from .loop_sources import fetched_by_name
from .passed_members import members_passed
from .source import ParsedModule
from .symbols import Element, Names, Scope


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


_ENDS = (ast.Break, ast.Continue, ast.Return, ast.Raise)
"""Statements that end a loop's turn (or the loop) before the rest of its body runs."""

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
        self._collected: dict[str, tuple[Collector, str | None]] = {}
        """Variables of loops over a registry a decorator fills (`for fn in TOOLS:` with `@tool`)
        -> that decorator, and the variable beside it taking the keys (`for name, fn in
        TOOLS.items():`), if any."""
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
        loop = listed_variables(self.names, module, stmt, scope, self._listed)
        outer = {name: self._listed[name] for name in loop if name in self._listed}
        self._listed.update(loop)
        if loop and isinstance(stmt, ast.For | ast.AsyncFor):
            first = next(iter(loop.values()))
            columns = {name: listed.values for name, listed in loop.items()}
            where = (first.module, first.scope)
            found = narrowed(self.names, module, stmt, scope, columns, where, self._breaking)
            if found is not None:
                self._narrowed[id(stmt)] = found
        passed = passed_variables(self.names, module, stmt, scope) if not loop else {}
        if not loop and not passed:  # `for n, fn in getmembers(module, ...)`, `module` handed in
            passed = members_passed(self.names, module, stmt, scope, self._passed)
        outer_passed = {name: self._passed[name] for name in passed if name in self._passed}
        self._passed.update(passed)
        opaque = _unlisted_variables(stmt) if not loop and not passed else ()
        registry = collector_of_loop(self.names, module, stmt, scope) if opaque else None
        collected: str | None = None
        if registry is not None:  # `for fn in TOOLS:` over a registry `@tool` fills: followed
            collected, collector, key = registry
            opaque = ()
            self._collected[collected] = (collector, key)
        if isinstance(stmt, ast.For | ast.AsyncFor):
            self._opaque.update(dict.fromkeys(opaque, stmt))
        variables = {*self._listed, *self._opaque, *self._passed, *self._collecting()}
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

    def repeated(self, call: ast.expr, read: tuple[ast.expr | None, ...]) -> bool:
        """Whether a registration `call` whose function and name (`read`) name no loop variable
        runs more than once: a statement of its own in the body of a loop over two listed values
        or more, a body no turn of which ends early (`for n in ("a", "b"): mcp.add_tool(f,
        name="same")` registers "same" twice: the SDK drops the second). Under a test, or beside a
        `break`, which turns reach it is not counted."""
        looped = {*self._listed, *self._opaque, *self._passed, *self._collecting()}
        if any(
            isinstance(n, ast.Name) and n.id in looped for e in read if e is not None for n in ast.walk(e)
        ):
            return False
        loops = {id(listed.loop): listed for listed in self._listed.values()}
        return any(
            len(listed.values) > 1
            and any(isinstance(s, ast.Expr) and s.value is call for s in listed.loop.body)
            and not any(isinstance(n, _ENDS) for s in listed.loop.body for n in ast.walk(s))
            for listed in loops.values()
        )

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
        collected = self._collected_as(fn)
        if collected is not None:  # each function the collector is applied to (`reach.py`)
            collector, key = collected
            return [
                (collector.parameter, collector.module, collector.scope, self._keyed(collector, key, name))
            ]
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
            looped = {*self._listed, *self._opaque, *self._passed, *self._collecting()}
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

    def _collecting(self) -> set[str]:
        """The variables of loops over registries a decorator fills: functions and keys."""
        return {*self._collected, *(key for _, key in self._collected.values() if key is not None)}

    def collector(self, fn: ast.expr) -> Collector | None:
        """The decorator filling the registry a loop whose variable `fn` is runs over (or
        `entry["function"]` of a record it stores): the registration of `fn` is read in that
        decorator (its `name=` too: `_keyed`)."""
        collected = self._collected_as(fn)
        return collected[0] if collected is not None else None

    def _collected_as(self, fn: ast.expr) -> tuple[Collector, str | None] | None:
        """The collector and key variable of the loop `fn` takes a registry's function from:
        the variable itself, or the field of the records a dict registry holds
        (`entry["function"]`, `TOOLS[name] = {"function": fn, ...}`)."""
        variable, part = part_of(fn)
        collected = self._collected.get(variable.id) if isinstance(variable, ast.Name) else None
        if collected is None or (part is not None and part[0] != "key"):  # `entry.function`: no record's
            return None
        return collected if collected[0].field == (part[1] if part is not None else None) else None

    def _keyed(self, collector: Collector, key: str | None, name: ast.expr | None) -> Named:
        """The `name=` of a registration of what a registry holds, read in its collector: the
        key a dict stores the function under when the loop passes that key (`for name, fn in
        TOOLS.items(): mcp.add_tool(fn, name=name)`), none when it passes none (the function's
        own name), a string written out as it is; anything else (`name=key.upper()`) computed."""
        if name is None or (isinstance(name, ast.Constant) and isinstance(name.value, str | type(None))):
            return (collector.module, name, collector.scope)
        if isinstance(name, ast.Name) and name.id == key:
            # `TOOLS[fn.__name__] = fn`: the function's own name
            stored = None if by_own_name(collector) else collector.key
            if isinstance(stored, ast.BoolOp) and isinstance(stored.op, ast.Or):
                stored = stored.values[0]  # `TOOLS[name or fn.__name__]`: what `name` is passed
            return (collector.module, stored, collector.scope)
        computed = ast.copy_location(ast.Call(name, [], []), name)  # read as no name written out
        return (collector.module, computed, collector.scope)

    def names_of(self, at: ast.expr, name: ast.expr) -> list[Named] | None:
        """Each name a loop lists for the `name=` of a registration written at `at` (`@mcp.tool(
        name=n)` on a def in `for n in ("a", "b"):` registers the def as `a`, then as `b`), with
        where to read it; a name the loop's tests leave out, never. None when no loop lists it."""
        names = self._names(name)
        return None if names is None else self._named(at, names, (names.module, name, names.scope))

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
