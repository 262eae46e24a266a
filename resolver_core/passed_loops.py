"""Loops over a collection a helper is handed: `def register(server, entries): for entry in
entries: server.add_tool(entry.function, name=entry.name)`, called `register(mcp, TOOLS)`.

The helper's loop registers whatever each call passes: where a call passes a collection
written out (`TOOLS = [ToolEntry(search, "search")]` in any module, `[a, b]` in the call, a
dict looped over by `.items()`), each of its values is a registration landing at that call,
as `reach.through_parameter` lands `def register(server, fn): server.add_tool(fn)` on each
call's `fn`. A call passing anything else (a list built at run time, the caller's own
parameter) is said, not guessed (an unfollowed registration), as the loop was before.

`loop_entries.PassedLoop` is what the registration scan (`enclosing_loops.EnclosingLoops`) keeps of
such a loop; `landings` expands a registration through it once the call sites are known (`reach.py`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .call_sites import CallSites
from .loop_entries import Part, PassedLoop, picked
from .loop_rows import rows_of
from .passed_members import member_values
from .registration_site import Registration, Unfollowed, landed, unlisted_loop
from .servers import Servers
from .signatures import function_params
from .source import ParsedModule
from .symbols import Names, Scope


def call_arguments(
    call_sites: CallSites,
    servers: Servers,
    module: ParsedModule,
    fn: ast.FunctionDef | ast.AsyncFunctionDef,
    index: int,
) -> Iterator[tuple[ParsedModule, ast.Call, Scope | None, ast.expr, bool]]:
    """What each call of `fn` passes for its parameter at `index` (module, call, scope, the
    argument, and whether the call binds `self`): `manager.register_tool("x", fn)` calls
    `register_tool(self, name, handler)` without passing `self`; `reg(fn)` calls `__call__`."""
    params = [a for a, *_ in function_params(fn)]
    for where, call, scope in call_sites.sites(fn, servers.class_of(module, fn)):
        on = isinstance(call.func, ast.Attribute) or fn.name == "__call__"
        bound = on and params[0].arg in ("self", "cls")
        arg = argument(call, index - bound, params[index].arg)
        if arg is not None:
            yield where, call, scope, arg, bound


def argument(call: ast.Call, position: int, name: str) -> ast.expr | None:
    """What a call passes for a parameter: at its position (counted without a bound `self`) or
    by its name."""
    if 0 <= position < len(call.args) and not any(
        isinstance(a, ast.Starred) for a in call.args[: position + 1]
    ):
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == name), None)


def landings(
    names: Names, call_sites: CallSites, servers: Servers, reg: Registration, unfollowed: list[Unfollowed]
) -> list[Registration]:
    """`reg`, registering a loop variable over a parameter, landed on each value every call
    passes (named in step when its `name=` comes from the same loop); a call passing values
    not written out is noted in `unfollowed` at the loop's registration, as is a helper no
    call reaches."""
    passed = reg.passed
    assert passed is not None and reg.scope is not None
    fn = reg.scope.function
    assert isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
    loop, part = passed.function
    index = [a for a, *_ in function_params(fn)].index(loop.parameter)
    out: list[Registration] = []
    unlisted = False
    for module, call, scope, arg, _ in call_arguments(call_sites, servers, reg.module, fn, index):
        found = _values(names, (module, scope, arg), loop, part, reg.fn)
        labels = (
            _values(names, (module, scope, arg), *passed.name, reg.fn) if passed.name is not None else None
        )
        if found is None:
            unlisted = True
            continue
        where, where_scope, values = found
        arms = (*call_sites.arms(call), *reg.arms)
        for i, value in enumerate(values):
            label = labels[2][i] if labels is not None else None
            name = (
                label.value if isinstance(label, ast.Constant) and isinstance(label.value, str) else reg.name
            )
            out.append(landed(reg, value, (where, where_scope), name, module.span(call), call, arms))
    if unlisted or not out:
        unfollowed.append(_note(reg))
    return out


def _values(
    names: Names,
    passing: tuple[ParsedModule, Scope | None, ast.expr],
    loop: PassedLoop,
    part: Part | None,
    registered: ast.expr | ast.FunctionDef | ast.AsyncFunctionDef,
) -> tuple[ParsedModule, Scope | None, tuple[ast.expr, ...]] | None:
    """What the loop variable (`part` of it) takes for each value of `arg` (read in `module`):
    the values, with the module and scope they are written in; None when not written out.
    A namespace loop over the modules passed (`passed_members.py`) takes the members reaching
    `registered` (the registration's function, as its body writes it)."""
    module, scope, arg = passing
    if loop.members is not None:
        if part is not None or not isinstance(registered, ast.expr):
            return None
        return member_values(names, module, scope, arg, loop, registered)
    iterated = ast.Call(ast.Attribute(arg, loop.method, ast.Load()), [], []) if loop.method else arg
    rows = rows_of(names, module, iterated, scope)
    if rows is None:
        return None
    where, where_scope, values = rows
    if loop.place is not None:
        at, width = loop.place
        if not all(isinstance(v, ast.Tuple | ast.List) and len(v.elts) == width for v in values):
            return None
        values = tuple(v.elts[at] for v in values)  # type: ignore[attr-defined]
    if part is not None:
        values = picked(names, where, where_scope, values, part)  # type: ignore[assignment]
    return None if values is None else (where, where_scope, values)


def _note(reg: Registration) -> Unfollowed:
    """What the scan said of the loop before its calls were read (`Scanner._unlisted`)."""
    passed = reg.passed
    assert passed is not None
    return unlisted_loop(reg.module, reg.span, ast.unparse(reg.fn), passed.function[0].loop)
