"""What a helper's function parameter takes when its caller passes a loop variable.

`def add_reader(server, fn): server.add_tool(fn)` called `for fn in READERS: add_reader(mcp,
fn)` (PagerDuty's server builds its own that way) registers each function of `READERS`, as
`for fn in READERS: mcp.add_tool(fn)` does: `reach.through_parameter` lands the helper's
registration on each call's argument, and this module reads that argument through the loops
around the call, the way the registration scan reads them (`enclosing_loops.EnclosingLoops`: a
collection written out here or in another module, rows unpacked, `entry.function`, aliases
bound in the loop's body). A loop over values the source does not list is said (an
unfollowed registration), as the same loop around `mcp.add_tool(fn)` is: the loop variable
is no name anything binds, and handing it on would drop the tools without a word.
"""

from __future__ import annotations

import ast
from contextlib import ExitStack

from .enclosing_loops import EnclosingLoops
from .model import Span
from .registration_site import Unfollowed, unlisted_loop
from .source import ParsedModule
from .symbols import Names, Scope

LoopPass = tuple[ast.expr, ParsedModule, Scope | None, tuple[ParsedModule, ast.expr | None, Scope | None]]
"""What a call passes on one pass of the loops around it (a function, or a server for
`slot_fillers`): the expression, with the module and scope it is read in, and the name it
passes with it (`registered_names.name_passed`) with where to read that."""


Loop = ast.For | ast.AsyncFor


class CallerLoops:
    """What calls pass through the loops around them, the loops of each scope found in one walk
    of its body when first asked (a walk per call made a module of many calls quadratic)."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self._around: dict[int, tuple[list[ast.stmt], dict[int, list[Loop]]]] = {}
        """Per body (by id, the body kept so the id stays its own): the loops around each call
        of it that is in one, outermost first."""

    def passed_values(
        self,
        module: ParsedModule,
        scope: Scope | None,
        call: ast.Call,
        arg: ast.expr,
        name: ast.expr | None,
        span: Span,
        unfollowed: list[Unfollowed],
    ) -> list[LoopPass]:
        """What `call` (in `module`, at `scope`) passes as `arg` on each pass of the loops around
        it, with what it passes as `name` on that pass (`for n, fn in (("a", u), ("b", u)):
        add(mcp, fn, n)`: `u` named "a", then "b"): `arg` itself outside any loop; nothing,
        noted in `unfollowed` at `span`, when it is the variable of a loop over values the
        source does not list."""
        loops = self._loops_around(_body(module, scope), call)
        if not loops:
            return [(arg, module, scope, (module, name, scope))]
        enclosing = EnclosingLoops(self.names)
        with ExitStack() as inside:
            for loop in loops:
                inside.enter_context(enclosing.entered(module, loop, scope))
            if isinstance(arg, ast.Name) and (unlisted := enclosing.unlisted(arg)) is not None:
                unfollowed.append(unlisted_loop(module, span, arg.id, unlisted))
                return []
            if name is not None:
                name = enclosing.aliases.unaliased(name)
            return enclosing.each(module, scope, enclosing.aliases.unaliased(arg), name)

    def in_loop(self, module: ParsedModule, scope: Scope | None, call: ast.Call) -> bool:
        """Whether `call` (in `module`, at `scope`) is in a `for` loop of its scope."""
        return bool(self._loops_around(_body(module, scope), call))

    def _loops_around(self, body: list[ast.stmt], call: ast.Call) -> list[Loop]:
        known = self._around.get(id(body))
        if known is None or known[0] is not body:
            known = self._around[id(body)] = (body, _calls_in_loops(body))
        return known[1].get(id(call), [])


def _body(module: ParsedModule, scope: Scope | None) -> list[ast.stmt]:
    """The statements a call site's scope runs: the module's, or its function's."""
    if scope is None:
        return module.tree.body if module.tree is not None else []
    return scope.function.body if isinstance(scope.function.body, list) else []


def _calls_in_loops(body: list[ast.stmt]) -> dict[int, list[Loop]]:
    """Each call of `body` inside `for` loops (by id) -> those loops, outermost first (in this
    scope: a nested def runs when it is called, not in the loop defining it; a loop's `else`
    after it)."""
    out: dict[int, list[Loop]] = {}
    todo: list[tuple[ast.AST, tuple[Loop, ...]]] = [(stmt, ()) for stmt in body]
    while todo:
        node, loops = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if loops and isinstance(node, ast.Call):
            out[id(node)] = list(loops)
        inner = (*loops, node) if isinstance(node, ast.For | ast.AsyncFor) else loops
        for field, value in ast.iter_fields(node):
            around = inner if field == "body" else loops
            children = value if isinstance(value, list) else [value]
            todo += [(child, around) for child in children if isinstance(child, ast.AST)]
    return out
