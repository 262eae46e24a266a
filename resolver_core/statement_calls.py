"""The calls a simple statement runs, each with the loops it runs in.

A registration written in a comprehension (`[mcp.add_tool(fn) for fn in TOOLS]`) or mapped
over a list a call consumes (`list(map(mcp.add_tool, TOOLS))`) registers each value as the
`for` loop it runs like would: the scan (`registrations.py`) reads both as that loop, so the
loop readers (`loops.py`) need not know of comprehensions or maps.
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


def _mapped(consumer: ast.Call) -> tuple[ast.Call, ast.For] | None:
    """`list(map(mcp.add_tool, TOOLS))` (or `map(mcp.tool(), TOOLS)`) as the call the map makes
    on each value, `mcp.add_tool(each)`, in the loop over `TOOLS` it runs like (made once per
    call). Only a map a call consumes whole runs its calls: a bare `map(...)` runs none, and
    `any(...)` stops at the first (the SDK's methods return what is truthy)."""
    if not (
        isinstance(consumer.func, ast.Name)
        and consumer.func.id in _CONSUMERS
        and len(consumer.args) == 1
        and isinstance(consumer.args[0], ast.Call)
    ):
        return None
    call = consumer.args[0]
    made: tuple[ast.Call, ast.For] | None = getattr(call, "_as_calls", None)
    if made is not None or not (isinstance(call.func, ast.Name) and call.func.id == "map"):
        return made
    if len(call.args) != 2 or call.keywords:
        return None
    func, values = call.args
    method = func.func if isinstance(func, ast.Call) else func
    if not isinstance(method, ast.Attribute) or method.attr not in ("add_tool", "tool"):
        return None
    if isinstance(func, ast.Call) != (method.attr == "tool"):
        return None  # `map(mcp.tool, ...)` calls the decorator factory on each function (T9)
    each = ast.copy_location(ast.Name(_MAPPED, ast.Load()), values)
    applied = ast.copy_location(ast.Call(func, [each], []), call)
    loop = ast.copy_location(ast.For(ast.Name(_MAPPED, ast.Store()), values, [], []), call)
    call._as_calls = made = (applied, loop)  # type: ignore[attr-defined]
    return made


_CONSUMERS = ("list", "tuple", "set", "frozenset", "sorted")
"""Builtins that iterate a `map(...)` to its end (`all`, `any` may stop early)."""

_MAPPED = "map()"
"""The name a `map(...)` call's values are read under (no Python name: it never shadows one)."""


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
