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
import copy
from collections.abc import Callable, Sequence
from typing import Literal

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
    if not any(isinstance(n, ast.If | ast.Match | ast.Break) for n in inside):
        return loop  # (a `break` alone, `mcp.add_tool(fn); break`, cuts after the first value)
    stored = {n.id for n in inside if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    stored |= {n.name for n in inside if isinstance(n, ast.MatchAs | ast.MatchStar) and n.name}  # `case f:`
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
        self._raising = 0
        """Inside how many bodies whose exceptions are caught (`guarded`) the walk is."""
        self._made: list[ast.expr] = []
        """The tests made of `case`s (`_case_test`), kept while the reader remembers them by id."""

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
                suppressing = any(self.reader.suppresses(item.context_expr) for item in stmt.items)
                after = self.guarded(stmt.body, live, sure, suppressing)[1]  # (a certain `break` is read)
                # every value goes on after it: an exception it suppresses (`suppress(...)`) skips the rest
                sure = after if not _ends(stmt) else frozenset()
            elif isinstance(stmt, ast.Match):
                live, sure = self.matched(stmt, live, sure)
            elif isinstance(stmt, ast.Try):
                live, sure = self.tried(stmt, live, sure)
            else:
                self.nested(stmt, live)
                sure = sure if not _ends(stmt) else frozenset()
            if self._raising and sure and _may_raise(stmt):  # what follows it may be skipped
                sure = frozenset()
        return live, sure

    def guarded(
        self, body: Sequence[ast.stmt], live: frozenset[int], sure: frozenset[int], handled: bool
    ) -> tuple[frozenset[int], frozenset[int]]:
        """`block`, in a body whose exceptions may be caught (`handled`: a `try` with `except`
        clauses, a `with suppress(...)`): after a statement that may raise (`_may_raise`), no
        value is certain to run the rest (`{}["k"]` then `break`: the `break` may be skipped)."""
        self._raising += handled
        try:
            return self.block(body, live, sure)
        finally:
            self._raising -= handled

    def matched(
        self, stmt: ast.Match, live: frozenset[int], sure: frozenset[int]
    ) -> tuple[frozenset[int], frozenset[int]]:
        """A `match` read as the `if`/`elif` chain it runs like: each `case` taking the values
        its pattern and guard are true for (`case f if f is bad:`, `case "base" | "utils":`,
        `_case_test`), the values it is false for trying the next one, an undecided value both."""
        self.calls(stmt.subject, live)
        entered = sure
        out_live: frozenset[int] = frozenset()
        out_sure: frozenset[int] = frozenset()
        for case in stmt.cases:
            if case.guard is not None:
                self.calls(case.guard, live)
            test = _case_test(stmt.subject, case, self._made)
            none: frozenset[int] = frozenset()
            true, false = (live, none) if test is True else (none, none)
            if isinstance(test, ast.expr):
                true, false = self.reader.decided(test, live)
            case_live, case_sure = self.block(case.body, live - false, sure & true)
            out_live, out_sure = out_live | case_live, out_sure | case_sure
            live, sure = live - true, sure & false
        return out_live | live, out_sure | sure if _ends(stmt) else entered

    def tried(
        self, stmt: ast.Try, live: frozenset[int], sure: frozenset[int]
    ) -> tuple[frozenset[int], frozenset[int]]:
        """A `try`: its body, then its `else:` for the values the body did not end (certain for
        those certain to finish the body: `mcp.add_tool(fn)` in it, `break` in the `else:`); each
        handler for any value (an exception may come anywhere in the body), `finally:` for all."""
        body_live, body_sure = self.guarded(stmt.body, live, sure, bool(stmt.handlers))
        after_live, after_sure = self.block(stmt.orelse, body_live, body_sure)
        for handler in stmt.handlers:
            if handler.type is not None:
                self.calls(handler.type, live)
            after_live |= self.block(handler.body, live, frozenset())[0]
        if stmt.finalbody:
            after_live &= self.block(stmt.finalbody, live, frozenset())[0]
        return after_live, sure if not _ends(stmt) else after_sure

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


def _may_raise(stmt: ast.stmt) -> bool:
    """Whether a statement may raise an exception a `try` or `with suppress(...)` around it
    catches, skipping what follows: a subscript, an import, an inner loop... A call (and a name
    bound to one) is read as returning, as registrations are everywhere: `mcp.add_tool(fn)` then
    `break` in `with suppress(KeyError):` breaks. The blocks of an `if`, `with`, `match` or
    `try` are read statement by statement (`_Walk.block`)."""
    if isinstance(stmt, ast.Pass | ast.If | ast.With | ast.AsyncWith | ast.Match | ast.Try):
        return False
    if isinstance(stmt, ast.Expr):
        return not isinstance(stmt.value, ast.Call | ast.Await)
    if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        return not (
            all(isinstance(t, ast.Name) for t in targets)
            and isinstance(stmt.value, ast.Call | ast.Name | ast.Constant)
        )
    return True


def _case_test(
    subject: ast.expr, case: ast.match_case, made: list[ast.expr]
) -> ast.expr | Literal[True] | None:
    """A `case` as the test of `subject` it runs like, for `ValueTests` to read: `case "a" |
    "b":` is `subject in ("a", "b")`, `case f if f is bad:` is `subject is bad` (its capture in
    the guard read as the subject); True for a case every value takes (`case _:`), None for a
    pattern not read (a class, a sequence, a mapping: undecided). A test made is kept in `made`."""
    pattern: ast.pattern | None = case.pattern
    name = None
    if isinstance(case.pattern, ast.MatchAs):
        pattern, name = case.pattern.pattern, case.pattern.name
    tested: ast.expr | Literal[True] | None = True if pattern is None else _pattern_test(subject, pattern)
    if tested is None or case.guard is None:
        if isinstance(tested, ast.expr):
            made.append(tested)
        return tested
    guard = _Captured(name, subject).visit(copy.deepcopy(case.guard)) if name else case.guard
    test = guard if tested is True else ast.BoolOp(ast.And(), [tested, guard])
    made.append(test)
    return test


def _pattern_test(subject: ast.expr, pattern: ast.pattern) -> ast.expr | None:
    """`case "a":` as `subject == "a"`, `case "a" | "b":` as `subject in ("a", "b")`; None for
    any other pattern."""
    if isinstance(pattern, ast.MatchValue):
        return ast.Compare(subject, [ast.Eq()], [pattern.value])
    if isinstance(pattern, ast.MatchOr) and all(isinstance(p, ast.MatchValue) for p in pattern.patterns):
        values: list[ast.expr] = [p.value for p in pattern.patterns if isinstance(p, ast.MatchValue)]
        return ast.Compare(subject, [ast.In()], [ast.Tuple(values, ast.Load())])
    return None


class _Captured(ast.NodeTransformer):
    """A guard with the name its `case` captures the subject under read as the subject."""

    def __init__(self, name: str, subject: ast.expr) -> None:
        self.name = name
        self.subject = subject

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return copy.deepcopy(self.subject) if node.id == self.name else node
