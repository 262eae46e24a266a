"""The values a loop iterates, when the source writes them out, and what each variable takes.

`rows_of` reads the collection a loop runs over (`for fn in TOOLS:`, `.items()` of a dict,
`zip(...)`, `enumerate(...)`, `[*A, *B]`) back to where it is written; `listed_variables` unpacks
those rows into the values each loop variable takes (`Listed`), as Python does, nested targets
and loops over an outer loop's variable included. Both the call scans (`literal_loops.py`) and
the registration scan (`enclosing_loops.py`) read loops through them.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence

from .concatenated import parts
from .held_instances import class_collection
from .joined_lists import MAX_JOINS, joined_rows
from .loop_entries import Part, numbered, picked, unwrapped
from .loop_sources import held_list
from .loop_zips import zipped_rows
from .module_members import member_rows
from .records import record
from .returned_collections import returned
from .source import ParsedModule
from .symbols import Names, Scope
from .written_collections import SEQUENCES, Rows, written_collection


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


def listed_variables(
    names: Names, module: ParsedModule, stmt: ast.stmt, scope: Scope | None, outer: Mapping[str, Listed]
) -> dict[str, Listed]:
    """Each variable of `stmt` (a `for` loop) -> the values it takes; empty when they are not
    listed. `outer` are the variables of the loops around it (`for group in (A, B): for fn in
    group:` takes the values of `A`, then of `B`)."""
    if not isinstance(stmt, ast.For | ast.AsyncFor):
        return {}
    if isinstance(stmt.iter, ast.Name) and stmt.iter.id in outer:
        found = _flattened(names, outer[stmt.iter.id])
    elif (each := _getter_of_each(stmt.iter, outer)) is not None:  # `module.export_tools()`
        found = rows_of(names, *each)
    else:  # a collection written out, or a list `__init__` stores (`for fn in self.tools:`)
        found = (
            rows_of(names, module, stmt.iter, scope)
            or held_list(module, stmt.iter, scope)
            or member_rows(names, module, stmt, scope, outer)  # `inspect.getmembers(tools, ...)`
        )
    if found is None:
        return {}
    where, where_scope, rows = found
    columns = unpacked_rows(stmt.target, rows)
    if columns is None:
        return {}
    return {name: Listed(where, where_scope, values, stmt) for name, values in columns.items()}


def _getter_of_each(
    expr: ast.expr, outer: Mapping[str, Listed]
) -> tuple[ParsedModule, ast.expr, Scope | None] | None:
    """`module.export_tools()` in `for module in MODULES:`: the collections each value's getter
    returns, one after the other, as the list `[*jobs.export_tools(), *events.export_tools()]`
    written where the outer values are (read by `rows_of`: `returned_collections.py`)."""
    if not (
        isinstance(expr, ast.Call)
        and not expr.args
        and not expr.keywords
        and isinstance(expr.func, ast.Attribute)
        and isinstance(expr.func.value, ast.Name)
        and expr.func.value.id in outer
    ):
        return None
    group, attr = outer[expr.func.value.id], expr.func.attr
    called: list[ast.expr] = [
        ast.copy_location(ast.Starred(ast.Call(ast.Attribute(v, attr, ast.Load()), [], []), ast.Load()), expr)
        for v in group.values
    ]
    return group.module, ast.copy_location(ast.List(called, ast.Load()), expr), group.scope


def unpacked_rows(target: ast.expr, rows: Sequence[ast.expr]) -> dict[str, tuple[ast.expr, ...]] | None:
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
        inner = unpacked_rows(part, [row.elts[i] for row in rows])  # type: ignore[attr-defined]
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
    (`[*NOTE_TOOLS, *TASK_TOOLS]`, `joined_lists.py`) or a sum joins (`NOTE_TOOLS + TASK_TOOLS`,
    `itertools.chain(...)`: `concatenated.py`), or a getter returns (`get_tools()`,
    `returned_collections.py`)."""
    expr, method, counted = unwrapped(names, module, expr, scope)
    zipped = zipped_rows(names, module, expr, scope, rows_of)
    if zipped is not None:
        return (*zipped[:2], numbered(zipped[2])) if counted else zipped
    found = written_collection(names, module, expr, scope)
    if found is None:
        return _computed(names, module, expr, scope, method, counted, joins)
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


def _computed(
    names: Names,
    module: ParsedModule,
    expr: ast.expr,
    scope: Scope | None,
    method: str | None,
    counted: bool,
    joins: int,
) -> Rows | None:
    """The values of a collection computed from others written out: what a getter returns
    (`get_tools()`, `returned_collections.py`), a class attribute read through `self`
    (`held_instances.class_collection`), or a sum's parts one after the other (`A + B`,
    `itertools.chain(A, B)`, `concatenated.py`, read as `[*A, *B]`)."""
    if joins >= MAX_JOINS:
        return None
    given: tuple[ParsedModule, Scope | None, ast.expr] | None = returned(names, module, expr, scope)
    held = class_collection(names, module, expr, scope) if given is None else None
    if held is not None:  # `self.TOOLS`: the class attribute, read as `Kit.TOOLS` at module level
        given = (held[0], None, held[1])
    got: Rows | None = None
    if given is not None:
        at, inside, value = given
        if method is not None:  # `get_tools().items()`: of the dict it returns
            value = ast.Call(ast.Attribute(value, method, ast.Load()), [], [])
        got = rows_of(names, at, value, inside, joins + 1)
    elif method is not None:
        return None
    else:
        summed = parts(names, module, expr, scope)
        if summed is None:
            return None
        where, where_scope, operands = summed
        rows = joined_rows(
            [ast.Starred(operand, ast.Load()) for operand in operands],
            where,
            where_scope,
            lambda at, value, inner: rows_of(names, at, value, inner, joins + 1),
        )
        got = None if rows is None else (where, where_scope, rows)
    return (got[0], got[1], numbered(got[2])) if got is not None and counted else got
