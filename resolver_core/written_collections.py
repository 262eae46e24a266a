"""The collection a loop runs over (or a test `in` reads), when the source writes it out.

`for fn in TOOLS:` and `if fn in SKIP:` read the values a tuple, list, set or dict literal
holds, directly or through a name bound once to one; a name whose collection the source
changes anywhere (`TOOLS.append(f)` in a registry's decorator, `SKIP.discard(f)`) holds
something else when the loop runs, so it is not read (the loop is said as not analysed).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import TypeVar

from .source import ParsedModule
from .symbols import Names, Scope, Value

SEQUENCES = (ast.Tuple, ast.List, ast.Set)
"""The collections written out whose elements are values in order."""
Rows = tuple[ParsedModule, Scope | None, tuple[ast.expr, ...]]
"""The values iterating a collection yields, with the module and scope they are written in."""
Found = TypeVar("Found")
"""What a `followed` reading finds."""
_MAX_ALIASES = 8
"""`TOOLS = ALL = [...]` chains followed before giving up (a cycle of names never ends)."""


def written_collection(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> tuple[ParsedModule, Scope | None, ast.Tuple | ast.List | ast.Set | ast.Dict] | None:
    """`expr` when written out, or the collection a name bound once to one stands for."""
    return followed(names, module, expr, scope, _written)


def _written(
    module: ParsedModule, scope: Scope | None, node: ast.expr, hop: int
) -> tuple[ParsedModule, Scope | None, ast.Tuple | ast.List | ast.Set | ast.Dict] | None:
    """A collection written out (`TOOLS = []` is filled at run time: none; `for n in ():`
    itself, by nothing)."""
    if isinstance(node, (*SEQUENCES, ast.Dict)) and (_elements(node) or hop == 0):
        return module, scope, node
    return None


def followed(
    names: Names,
    module: ParsedModule,
    expr: ast.expr,
    scope: Scope | None,
    read: Callable[[ParsedModule, Scope | None, ast.expr, int], Found | None],
) -> Found | None:
    """What `read` finds in `expr` (with the module, scope and hop it is read at), or in the
    value a name bound once stands for, followed through names bound to names (`TOOLS = ALL
    = [...]`). The names are looked for changes (`changed_after`, a search of their modules'
    texts) only once something is found: most names read are no collection."""
    chain: list[tuple[str, ParsedModule, ParsedModule]] = []
    for hop in range(_MAX_ALIASES):
        got = read(module, scope, expr, hop)
        if got is not None:
            return None if any(changed_after(*link) for link in chain) else got
        if not isinstance(expr, ast.Name | ast.Attribute):
            return None
        symbol = names.resolve(module, expr, scope)
        if not isinstance(symbol, Value):
            return None
        chain.append((symbol.name, module, symbol.module))
        module, scope, expr = symbol.module, symbol.scope, symbol.node
    return None


def written_entry(
    names: Names, module: ParsedModule, expr: ast.Subscript, scope: Scope | None
) -> tuple[ParsedModule, Scope | None, ast.expr] | None:
    """`RESOLVERS["user"]` of a dict written out (`RESOLVERS = {"user": load_d}`, bound once
    and changed nowhere: `written_collection`), as the value written for that key, with the
    module and scope it is written in; the last one written, as Python keeps it. None for any
    other subscript: a key computed here or in the dict (it may equal this one), a `**` entry,
    a key the dict does not write (Python raises)."""
    key = expr.slice
    if not isinstance(key, ast.Constant):
        return None
    found = written_collection(names, module, expr.value, scope)
    if found is None or not isinstance(found[2], ast.Dict):
        return None
    value = None
    for written, entry in zip(found[2].keys, found[2].values, strict=True):
        if not isinstance(written, ast.Constant):
            return None  # `**other`, or a key only the run knows
        if type(written.value) is type(key.value) and written.value == key.value:
            value = entry
    return None if value is None else (found[0], found[1], value)


def _elements(node: ast.Tuple | ast.List | ast.Set | ast.Dict) -> bool:
    return bool(node.keys if isinstance(node, ast.Dict) else node.elts)


_CHANGES = "|".join(
    (
        *("append", "extend", "insert", "update", "add", "setdefault", "__setitem__"),  # growing
        *("discard", "remove", "pop", "popitem", "clear", "__delitem__"),  # shrinking
        *("difference_update", "intersection_update", "symmetric_difference_update"),
    )
)
"""The methods of a list, set or dict that change what it holds."""


def changed_after(name: str, *modules: ParsedModule) -> bool:
    """Whether the source changes the collection after binding it (`TOOLS.append(fn)` in a
    registry decorator, `TOOLS += [...]`, `TOOLS["x"] = f`, `SKIP.discard(f)`, `del
    TOOLS[0]`): then what is written is not what the loop (or a test `in` it) sees."""
    changed = re.compile(
        rf"\b{re.escape(name)}\s*(?:\.\s*(?:{_CHANGES})\s*\("
        r"|[-+|&^]=|\[[^\]\n]*\]\s*=[^=])"
        rf"|\bdel\s+{re.escape(name)}\b"
    )
    return any(changed.search(m.text or "") for m in modules)
