"""Loops read where a call through their variable is made: `for m in (a, b): m.register(mcp)`.

Real servers register their tools in loops: over a tuple written in place (`for fn in (a, b):`),
over a collection named at module level, often in another module (`ALL_TOOLS = [a, b]`,
`TOOLS = {"notes_list": list_notes}` then `for name, fn in TOOLS.items():`), or over pairs
(`for name, fn in (("a", f), ("b", g)):`). The SDK registers each value, so each one is a
registration site; a loop whose values are computed (`inspect.getmembers(...)`, a list filled
by a decorator at run time) is not guessed: the caller notes it as not followed.

A `LiteralLoop` is such a loop as the call scans (`call_sites.py`, `handed_servers.py`,
`dynamic_imports.py`) keep it: its variables and the values written out for them, so that a
call through a variable (`m.register`) is read as the call of each value (`in_loop_place`).
The registration scan keeps more of a loop (`enclosing_loops.py`).
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Callable, Iterator, Sequence

from .joined_lists import elements_of
from .loop_entries import unwrapped
from .loop_rows import rows_of
from .prefilter import holds
from .source import ParsedModule
from .symbols import Element, Names, Scope
from .written_collections import SEQUENCES, written_collection

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
    if not isinstance(stmt.target, ast.Name) or isinstance(stmt.iter, ast.Call | ast.BinOp):
        return _unpacked(names, module, stmt, scope)  # (`for m in CORE + EXTRA:` too)
    if not isinstance(stmt.iter, ast.Name | ast.Attribute):
        return None
    found = written_collection(names, module, stmt.iter, scope)
    if found is None:  # `MODULES = CORE + EXTRA`: the values of the sum (`loop_rows.rows_of`)
        return _unpacked(names, module, stmt, scope)
    if found[1] is not None:
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
    variable taking that loop's values too); `[func]` when it calls through none. An
    instance made of the variable is made of each value: `cls().add` inside `for cls in
    (SolveTool, EchoTool):` is `SolveTool().add`, then `EchoTool().add`."""
    attr, base = (func.attr, func.value) if isinstance(func, ast.Attribute) else (None, func)
    if attr is not None and isinstance(base, ast.Call) and isinstance(base.func, ast.Name):
        made = in_loop_place(base.func, loops)
        if made != [base.func]:
            return [
                ast.Attribute(ast.Call(each, base.args, base.keywords), attr, ast.Load()) for each in made
            ]
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
