"""Namespace loops over modules a helper is handed:

    def register_tools(mcp, modules):
        for module in modules:
            for fname, fn in inspect.getmembers(module, inspect.isfunction):
                if fname.endswith("_tool"):
                    mcp.add_tool(fn)

    register_tools(mcp, [tools, more])

(or `def register_module(mcp, module):` walking the one module it is handed). What the inner
loop lists is known only where the helper is called: at each call passing modules written out
(`[tools, more]`, a name bound to such a list, a module itself), the outer variable takes those
modules (`loop_rows.Listed`, read where the call is) and the inner loop's rows and tests are
read as for a namespace loop written in the caller (`module_members.py`, `loop_filters.py`).
A call passing anything else leaves the registration not followed, as it was before.

`members_passed` marks the inner loop's variables at scan time (`enclosing_loops.py`, as
`loop_entries.passed_variables` marks a loop over a parameter); `member_values` gives the
functions (or names) one call lands on (`passed_loops.landings`).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from .loop_entries import Members, PassedLoop
from .loop_filters import narrowed
from .loop_rows import Listed, listed_variables, rows_of
from .module_members import listed_namespace
from .source import ParsedModule
from .symbols import Names, Param, Scope


def members_passed(
    names: Names, module: ParsedModule, stmt: ast.stmt, scope: Scope | None, passed: Mapping[str, PassedLoop]
) -> dict[str, PassedLoop]:
    """Each variable of `stmt`, a namespace loop (`getmembers(module, ...)`, `vars(module).items()`)
    over the variable of a loop over a parameter (`for module in modules:`, whose whole body it
    is) or over a parameter itself, -> where it comes from; empty for any other statement."""
    if scope is None or not isinstance(stmt, ast.For | ast.AsyncFor):
        return {}
    listed = listed_namespace(stmt)
    if listed is None:
        return {}
    outer = passed.get(listed)
    if outer is not None:
        if outer.method is not None or outer.place is not None or outer.members is not None:
            return {}
        if outer.loop.body != [stmt] or outer.loop.orelse:
            return {}  # the outer loop's own tests or statements: not read
        parameter, each = outer.parameter, outer.loop
    else:
        symbol = names.lookup(module, listed, scope)
        if not isinstance(symbol, Param) or symbol.function is not scope.function:
            return {}
        parameter, each = symbol.node, None
    target = stmt.target
    assert isinstance(target, ast.Tuple)  # (`listed_namespace`: two names)
    members = Members(stmt, module, scope, listed, each)
    return {
        t.id: PassedLoop(parameter, None, (i, 2), stmt, members)
        for i, t in enumerate(target.elts)
        if isinstance(t, ast.Name)
    }


def member_values(
    names: Names,
    module: ParsedModule,
    scope: Scope | None,
    arg: ast.expr,
    loop: PassedLoop,
    registered: ast.expr,
) -> tuple[ParsedModule, Scope | None, tuple[ast.expr, ...]] | None:
    """What the variable of `loop` (a `members_passed` one) takes when a call (in `module`, at
    `scope`) passes `arg` for the parameter, for the `registered` expression of the loop's body
    (the inner loop's tests leaving out the members they do); None when `arg` is not written out."""
    members = loop.members
    assert members is not None and loop.place is not None
    if members.each is not None:
        found = rows_of(names, module, arg, scope)
        if found is None:
            return None
        where, where_scope, values = found
        source = Listed(where, where_scope, values, members.each)
    else:
        source = Listed(module, scope, (arg,), members.loop)
    columns = listed_variables(names, members.module, members.loop, members.scope, {members.source: source})
    target = members.loop.target
    assert isinstance(target, ast.Tuple)
    variable = target.elts[loop.place[0]]
    if not isinstance(variable, ast.Name) or variable.id not in columns:
        return None
    taken = columns[variable.id]
    reached = narrowed(
        names,
        members.module,
        members.loop,
        members.scope,
        {name: listed.values for name, listed in columns.items()},
        (taken.module, taken.scope),
    )
    kept = reached(registered) if reached is not None else None
    values = tuple(v for i, v in enumerate(taken.values) if kept is None or i in kept)
    return taken.module, taken.scope, values
