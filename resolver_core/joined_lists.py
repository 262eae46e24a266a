"""Collections joined from others by unpacking: `ALL_TOOLS = [*NOTE_TOOLS, *TASK_TOOLS]`.

Published servers keep one list of tool functions per feature module and join them in the
package `__init__` for the server to loop over (`for func in ALL_TOOLS: mcp.add_tool(func)`).
Each `*LIST` unpacks a collection the source writes out (here or in another module) into the
loop's values, in order; a value written in another module is an `Element` of that
collection, read where it is written, as `literal_loops.listed_loop` reads another module's list. A
starred value the source does not write out leaves the whole collection unread.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

from .source import ParsedModule
from .symbols import Element, Scope
from .written_collections import SEQUENCES, Rows

MAX_JOINS = 8
"""Unpackings followed within one another (`A = [*A]` never ends)."""

MAX_ROWS = 4096
"""Values a joined collection yields at most, past which it is not read (said not analysed):
each level unpacking the one below several times multiplies them (`D1 = [*D0, *D0, ...]` six
times over seven levels is 279,936 values from ten short lines), where a collection written out
holds no more values than its text."""


def joined_rows(
    elements: Sequence[ast.expr],
    where: ParsedModule,
    scope: Scope | None,
    read: Callable[[ParsedModule, ast.expr, Scope | None], Rows | None],
) -> tuple[ast.expr, ...] | None:
    """The values of a collection written in `where` whose `elements` may unpack others
    (`*NOTE_TOOLS`): each one's values in its place, `read` finding them (another module's as
    `Element`s); None when one of them is not written out."""
    rows: list[ast.expr] = []
    for element in elements:
        if not isinstance(element, ast.Starred):
            rows.append(element)
            continue
        found = read(where, element.value, scope)
        if found is None:
            return None
        inner, inner_scope, values = found
        if len(rows) + len(values) > MAX_ROWS:
            return None
        if inner is where and inner_scope is scope:
            rows += values
        else:
            rows += [elements_of(element.value, inner, inner_scope, value) for value in values]
    return tuple(rows)


def elements_of(collection: ast.expr, where: ParsedModule, scope: Scope | None, row: ast.expr) -> ast.expr:
    """A row of another module's collection, its values read where they are written (`Element`)."""
    if isinstance(row, SEQUENCES):
        return ast.Tuple(
            [Element(collection, i, where, v, scope) for i, v in enumerate(row.elts)], ast.Load()
        )
    return Element(collection, 0, where, row, scope)
