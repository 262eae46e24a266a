"""Which of a loop's values reach each call of its body, the filters it writes read statically.

Servers that find their feature modules at start-up skip some of them in the loop that
imports each (`if info.name.startswith("_"): continue`, `if not ispkg:`, `if name in SKIP:
continue`, `if name == "base": continue`): a module skipped there is never imported, so what
its `register` would register is not the server's, whatever its resolvers are. The body is
read once per loop, in order, carrying the values still running at each statement: an `if`
whose test is decided for a value takes that value into one branch only, and a branch ending
in `continue` (or `break`, `return`, `raise`) leaves it out of what follows. A test is read
when it is about the loop's variables (or a name the body binds once from them) compared
with constant texts or collections written out; any other test is undecided, and a value it
decides nothing about runs both ways, as every value did before filters were read.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

from .literal_loops import LiteralLoop
from .loop_conditions import ValueTests, body_aliases
from .source import ParsedModule
from .symbols import Names, Scope

_ENDS = (ast.Continue, ast.Break, ast.Return, ast.Raise)
"""Statements after which the rest of the iteration does not run for the value."""


class Filtered(list[ast.expr]):
    """A loop's values, with the calls of its body that only some of them reach: the call's
    function (`module.register`) by id, with itself (the id is only its while it lives) and
    the places in the values of those that reach it; `broken` when one of them certainly
    `break`s (the loop's `else:` then never runs)."""

    def __init__(
        self,
        values: list[ast.expr],
        reaching: dict[int, tuple[ast.expr, frozenset[int]]],
        broken: bool = False,
    ) -> None:
        super().__init__(values)
        self.reaching = reaching
        self.broken = broken


def filtered(
    names: Names,
    module: ParsedModule,
    stmt: ast.stmt,
    scope: Scope | None,
    loop: LiteralLoop | None,
    where: tuple[ParsedModule, Scope | None] | None = None,
) -> LiteralLoop | None:
    """`loop` (the values `stmt` takes, read in `where`, else where the loop is), its values
    `Filtered` when its body's tests leave some of them out of some calls, or cut after the
    first that certainly `break`s."""
    if loop is None or not isinstance(stmt, ast.For | ast.AsyncFor) or not loop[1]:
        return loop
    variables = loop[0] if isinstance(loop[0], tuple) else (loop[0],)
    inside = [n for s in stmt.body for n in ast.walk(s)]
    if not any(isinstance(n, ast.If | ast.Break) for n in inside):
        return loop  # (a `break` alone, `mcp.add_tool(fn); break`, cuts after the first value)
    stored = {n.id for n in inside if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    if stored.intersection(variables):  # a variable bound anew: a test after it reads another value
        return loop
    aliases = body_aliases(inside, set(variables))
    reader = ValueTests(names, module, scope, variables, loop[1], aliases, stored, where or (module, scope))
    everything = frozenset(range(len(loop[1])))
    reaching: dict[int, tuple[ast.expr, frozenset[int]]] = {}
    walk = _Walk(reader, everything, reaching)
    walk.block(stmt.body, everything, everything)
    if walk.broken is not None:  # the values after the first one certain to `break` never run
        return loop[0], Filtered(loop[1][: walk.broken + 1], reaching, broken=True)
    return (loop[0], Filtered(loop[1], reaching)) if reaching else loop


def broken(loop: LiteralLoop) -> bool:
    """Whether one of `loop`'s values (`filtered`) certainly `break`s: its `else:` never runs."""
    return isinstance(loop[1], Filtered) and loop[1].broken


def narrowed(
    names: Names,
    module: ParsedModule,
    stmt: ast.For | ast.AsyncFor,
    scope: Scope | None,
    columns: dict[str, tuple[ast.expr, ...]],
    where: tuple[ParsedModule, Scope | None],
    breaking: set[int] | None = None,
) -> Callable[[ast.expr], frozenset[int] | None] | None:
    """For a loop over functions (`for fn in TOOLS:`; `columns`: each variable's values in
    step, read in `where`), which of them reach an expression of its body (`mcp.add_tool(fn)`,
    `add(mcp, fn)`): their places, None when all do. None when the body's tests leave none out
    (`if fn is not skip:`, `if fn in SKIP: continue`, a `break`). A loop one of whose values
    certainly `break`s is added (by id) to `breaking`: its `else:` block never runs."""
    variables = tuple(columns)
    count = len(next(iter(columns.values()), ()))
    rows: list[ast.expr] = [
        ast.Tuple([columns[v][i] for v in variables], ast.Load())
        if len(variables) > 1
        else columns[variables[0]][i]
        for i in range(count)
    ]
    loop = filtered(
        names, module, stmt, scope, (variables if len(variables) > 1 else variables[0], rows), where
    )
    if loop is None or not isinstance(loop[1], Filtered):
        return None
    if loop[1].broken and breaking is not None:
        breaking.add(id(stmt))
    kept = frozenset(range(len(loop[1])))
    reaching = loop[1].reaching

    def reached(node: ast.expr) -> frozenset[int] | None:
        found = reaching.get(id(node))
        allowed = found[1] & kept if found is not None and found[0] is node else kept
        return None if len(allowed) == count else allowed

    return reached


def reaching(func: ast.expr, loops: Sequence[LiteralLoop]) -> Sequence[LiteralLoop]:
    """`loops` as a call through `func`, where it is written, sees them: each loop's values
    that reach it (`loops` itself, most often: no loop, or no filter)."""
    if not any(isinstance(values, Filtered) for _, values in loops):
        return loops
    out: list[LiteralLoop] = []
    for variables, values in loops:
        found = values.reaching.get(id(func)) if isinstance(values, Filtered) else None
        if found is not None and found[0] is func:
            values = [v for at, v in enumerate(values) if at in found[1]]
        out.append((variables, values))
    return out


class _Walk:
    """The body read in order, each statement with the values running there, and those
    certain to run it (a `break` they certainly reach ends the loop: `broken`)."""

    def __init__(
        self,
        reader: ValueTests,
        everything: frozenset[int],
        reaching: dict[int, tuple[ast.expr, frozenset[int]]],
    ) -> None:
        self.reader = reader
        self.everything = everything
        self.reaching = reaching
        self.broken: int | None = None
        """The first value certain to reach a `break` of the loop: no later one runs."""

    def block(
        self, body: Sequence[ast.stmt], live: frozenset[int], sure: frozenset[int]
    ) -> tuple[frozenset[int], frozenset[int]]:
        """The values still running after `body`, entered by `live`, and those certain to
        (of `sure`, certain to enter it; empty inside any statement but an `if` or a `with`)."""
        for at, stmt in enumerate(body):  # (on when none is left: the calls after reach none)
            if isinstance(stmt, _ENDS):
                self.calls(stmt, live)
                if isinstance(stmt, ast.Break) and sure:
                    self.broken = min(sure) if self.broken is None else min(self.broken, *sure)
                for dead in body[at + 1 :]:  # `break` then `mcp.add_tool(fn)`: never run
                    self.calls(dead, frozenset())
                return frozenset(), frozenset()
            if isinstance(stmt, ast.If):
                self.calls(stmt.test, live)
                true, false = self.reader.decided(stmt.test, live)
                live_true, sure_true = self.block(stmt.body, live - false, sure & true)
                live_false, sure_false = self.block(stmt.orelse, live - true, sure & false)
                undecided = sure - true - false if not _ends(stmt) else frozenset()
                live, sure = live_true | live_false, sure_true | sure_false | undecided
            elif isinstance(stmt, ast.With | ast.AsyncWith):  # its body runs as the loop's does
                for item in stmt.items:
                    self.calls(item, live)
                after = self.block(stmt.body, live, sure)[1]  # (a `break` there, certain, is read)
                # every value goes on after it: an exception it suppresses (`suppress(...)`) skips the rest
                sure = after if not _ends(stmt) else frozenset()
            else:
                self.nested(stmt, live)
                sure = sure if not _ends(stmt) else frozenset()
        return live, sure

    def nested(self, node: ast.AST, live: frozenset[int]) -> None:
        """A statement that is not an `if`: its blocks read with `live`, and `live` running on
        after it (what ends inside a `try`, a `with` or an inner loop is not followed out)."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                continue
            if isinstance(child, ast.excepthandler | ast.match_case):
                self.nested(child, live)
            else:
                self.calls(child, live)
        for _, value in ast.iter_fields(node):
            if isinstance(value, list) and value and all(isinstance(s, ast.stmt) for s in value):
                self.block(value, live, frozenset())

    def calls(self, node: ast.AST, live: frozenset[int]) -> None:
        """Every expression of `node` (a call's function, what it passes: `add(mcp, fn)`) is
        reached by `live`."""
        if live == self.everything:
            return
        for found in ast.walk(node):
            if isinstance(found, ast.expr):
                self.reaching[id(found)] = (found, live)


def _ends(stmt: ast.stmt) -> bool:
    """Whether a statement may end the turn of the loop for a value (a `continue`, `break`,
    `return` or `raise` anywhere in it, outside the defs it holds)."""
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, _ENDS):
            return True
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            todo += ast.iter_child_nodes(node)
    return False
