"""The calls a simple statement runs, each with the loops it runs in.

A registration written in a comprehension (`[mcp.add_tool(fn) for fn in TOOLS]`) or mapped
over a list a call consumes (`list(map(mcp.add_tool, TOOLS))`) registers each value as the
`for` loop it runs like would: the scan (`registrations.py`) reads both as that loop, so the
loop readers (`loop_rows.py`, `enclosing_loops.py`) need not know of comprehensions or maps.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator


def calls_in(stmt: ast.stmt) -> Iterator[tuple[ast.Call, tuple[ast.For, ...]]]:
    """The calls of a simple statement (not descending into nested blocks or definitions),
    each with the comprehensions' loops around it (`[mcp.add_tool(fn) for fn in TOOLS]` runs
    the call in a loop over `TOOLS`), as `for` statements (`_comprehended`)."""
    stack: list[tuple[ast.AST, tuple[ast.For, ...]]] = [(stmt, ())]
    while stack:
        cur, loops = stack.pop()
        if isinstance(cur, ast.Call):
            yield cur, loops
            mapped = _mapped(cur)
            if mapped is not None:  # `list(map(mcp.add_tool, TOOLS))`: a call per value, as in a loop
                yield mapped[0], (*loops, mapped[1])
        elif cur is stmt and isinstance(cur, ast.For | ast.AsyncFor) and _runs_to_the_end(cur):
            mapped = _made(cur.iter, None)  # `for _ in map(mcp.add_tool, TOOLS): pass`
            if mapped is not None:
                yield mapped[0], (*loops, mapped[1])
        if isinstance(cur, _COMPREHENSIONS):
            parts = (cur.key, cur.value) if isinstance(cur, ast.DictComp) else (cur.elt,)
            for generator in cur.generators:  # each `for` runs inside the ones before it
                stack.append((generator.iter, loops))
                loops = (*loops, _comprehended(generator, parts))
                stack += [(test, loops) for test in generator.ifs]
            stack += [(part, loops) for part in parts]
            continue
        for child in ast.iter_child_nodes(cur):
            if not isinstance(child, ast.stmt | ast.Lambda):
                stack.append((child, loops))


def own_calls(node: ast.AST) -> Iterator[ast.Call]:
    """The calls in a statement's own expressions, loops or not (not in nested blocks, defs,
    lambdas or classes): every call a call index records."""
    stack: list[ast.AST] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.Call):
            yield cur
        for child in ast.iter_child_nodes(cur):
            if not isinstance(child, ast.stmt | ast.Lambda):
                stack.append(child)


def consumed_map(expr: ast.expr) -> tuple[ast.Call, ast.For] | None:
    """`list(map(f, TOOLS))` written as an expression (`tools=tools` bound to it): the call the
    map makes on each value and the loop it runs like, as `_mapped` reads it."""
    return _mapped(expr) if isinstance(expr, ast.Call) else None


def _mapped(consumer: ast.Call) -> tuple[ast.Call, ast.For] | None:
    """`list(map(mcp.add_tool, TOOLS))` (or `map(mcp.tool(), TOOLS)`) as the call the map makes
    on each value, `mcp.add_tool(each)`, in the loop over `TOOLS` it runs like (made once per
    call); over several iterables, `map(mcp.add_tool, TOOLS, NAMES)`, the call takes a value of
    each (`add_tool(fn, name)`) in a loop over `zip(TOOLS, NAMES)` (`loop_zips.py`). Only a map
    a call consumes runs its calls, and only as far as it iterates: a bare `map(...)` runs none;
    `all(...)` stops at the first false result and `any(...)` at the first true one, so as
    `add_tool` returns None and the decorator the function (true), `all(map(mcp.add_tool, ...))`
    and `any(map(mcp.tool(), ...))` run the first call only (a loop that `break`s after it)."""
    if not (
        isinstance(consumer.func, ast.Name)
        and consumer.func.id in (*_CONSUMERS, *_STOPPING)
        and len(consumer.args) == 1
        and isinstance(consumer.args[0], ast.Call)
    ):
        return None
    return _made(consumer.args[0], _STOPPING.get(consumer.func.id))


def _made(call: ast.expr, stopping: str | None) -> tuple[ast.Call, ast.For] | None:
    """`map(mcp.add_tool, TOOLS)` as `_mapped` reads it, iterated to its end by its consumer,
    or until the first call of the registrar `stopping` names (`all`, `any`). A registrar bound
    to a name first (`add = mcp.add_tool`, then `list(map(add, TOOLS))`) is called as written,
    `add(each)`, which the scan reads as that registrar (`registrar_aliases.py`): over one
    iterable, consumed to its end (which registrar it is, and so what it returns, is the scan's)."""
    if not isinstance(call, ast.Call):
        return None
    made: tuple[ast.Call, ast.For] | None = getattr(call, "_as_calls", None)
    if made is not None or not (isinstance(call.func, ast.Name) and call.func.id == "map"):
        return made
    if len(call.args) < 2 or call.keywords:
        return None
    func, *iterables = call.args
    if isinstance(func, ast.Name):
        return _as_loop(call, func, iterables, None) if len(iterables) == 1 and stopping is None else None
    method = func.func if isinstance(func, ast.Call) else func
    if not isinstance(method, ast.Attribute) or method.attr not in ("add_tool", "tool"):
        return None
    if isinstance(func, ast.Call) != (method.attr == "tool"):
        return None  # `map(mcp.tool, ...)` calls the decorator factory on each function (T9)
    if method.attr == "tool" and len(iterables) > 1:
        return None  # the decorator takes one function: a TypeError, no registration
    return _as_loop(call, func, iterables, stopping == method.attr)


def _as_loop(
    call: ast.Call, func: ast.expr, iterables: list[ast.expr], stops: bool | None
) -> tuple[ast.Call, ast.For]:
    """`map(func, *iterables)` as the call it makes on each value and the loop it runs like,
    that loop `break`ing after its first call when `stops` (made once per `map(...)` call)."""
    taken = [_MAPPED + "," * i for i in range(len(iterables))]
    each: list[ast.expr] = [
        ast.copy_location(ast.Name(n, ast.Load()), v) for n, v in zip(taken, iterables, strict=True)
    ]
    applied = ast.copy_location(ast.Call(func, each, []), call)
    target: ast.expr = ast.Name(taken[0], ast.Store())
    values = iterables[0]
    if len(iterables) > 1:
        target = ast.Tuple([ast.Name(n, ast.Store()) for n in taken], ast.Store())
        values = ast.copy_location(ast.Call(ast.Name("zip", ast.Load()), iterables, []), call)
    body: list[ast.stmt] = []
    if stops:  # the first result stops the consumer
        body = [ast.copy_location(ast.Expr(applied), call), ast.copy_location(ast.Break(), call)]
    loop = ast.copy_location(ast.For(ast.copy_location(target, call), values, body, []), call)
    call._as_calls = made = (applied, loop)  # type: ignore[attr-defined]
    return made


def _runs_to_the_end(loop: ast.For | ast.AsyncFor) -> bool:
    """Whether a `for` loop iterates what it runs over to its end: its body holds no `break`,
    `return` or `raise` (a `pass`, a log line)."""
    return not any(
        isinstance(node, ast.Break | ast.Return | ast.Raise) for part in loop.body for node in ast.walk(part)
    )


_CONSUMERS = ("list", "tuple", "set", "frozenset", "sorted")
"""Builtins that iterate a `map(...)` to its end."""

_STOPPING = {"all": "add_tool", "any": "tool"}
"""Builtins that stop iterating a `map(...)` at a result, and the registrar whose every result
stops them: `add_tool` returns None (false: `all` stops), the decorator the function it is
given (true: `any` stops). Over the other registrar, they iterate to the end."""

_MAPPED = "map()"
"""The name a `map(...)` call's values are read under (no Python name: it never shadows one);
the values of its second iterable under `map(),`, and so on."""


def _comprehended(generator: ast.comprehension, parts: tuple[ast.expr, ...]) -> ast.For:
    """`for fn in TOOLS` of a comprehension as the `for` statement it runs like (one per
    generator: the loop two variables of it take their values in step from), its `if`s
    around what it computes (`parts`) as the body: `[mcp.add_tool(f) for f in TOOLS if f is
    not skip]` runs like `for f in TOOLS: if f is not skip: mcp.add_tool(f)`, whose filters
    `loop_filters` reads (the value left out is never registered)."""
    made: ast.For | None = getattr(generator, "_as_for", None)
    if made is None:
        body: list[ast.stmt] = [ast.copy_location(ast.Expr(part), part) for part in parts]
        for test in reversed(generator.ifs):
            body = [ast.copy_location(ast.If(test, body, []), test)]
        made = ast.copy_location(ast.For(generator.target, generator.iter, body, []), generator.target)
        generator._as_for = made  # type: ignore[attr-defined]
    return made


def comprehension_loops(node: ast.ListComp) -> tuple[ast.For, ...]:
    """The `for` statements a list comprehension runs its element in, outermost first (as
    `calls_in` reads the comprehensions around a call)."""
    return tuple(_comprehended(generator, (node.elt,)) for generator in node.generators)


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
