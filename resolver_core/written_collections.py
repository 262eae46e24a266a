"""The collection a loop runs over (or a test `in` reads), when the source writes it out.

`for fn in TOOLS:` and `if fn in SKIP:` read the values a tuple, list, set or dict literal
holds, directly or through a name bound once to one; a name whose collection the source
changes anywhere (`TOOLS.append(f)` in a registry's decorator, `SKIP.discard(f)`) holds
something else when the loop runs, so it is not read (the loop is said as not analysed).
"""

from __future__ import annotations

import ast
import re

from .source import ParsedModule
from .symbols import Names, Scope, Value

SEQUENCES = (ast.Tuple, ast.List, ast.Set)
"""The collections written out whose elements are values in order."""
Rows = tuple[ParsedModule, Scope | None, tuple[ast.expr, ...]]
"""The values iterating a collection yields, with the module and scope they are written in."""
_MAX_ALIASES = 8
"""`TOOLS = ALL = [...]` chains followed before giving up (a cycle of names never ends)."""


def written_collection(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> tuple[ParsedModule, Scope | None, ast.Tuple | ast.List | ast.Set | ast.Dict] | None:
    """`expr` when written out, or the collection a name bound once to one stands for."""
    for hop in range(_MAX_ALIASES):
        if isinstance(expr, (*SEQUENCES, ast.Dict)):
            # `TOOLS = []`: filled at run time; `for n in ():` itself, by nothing
            return (module, scope, expr) if _elements(expr) or hop == 0 else None
        if not isinstance(expr, ast.Name | ast.Attribute):
            return None
        symbol = names.resolve(module, expr, scope)
        if not isinstance(symbol, Value) or _filled_elsewhere(symbol.name, module, symbol.module):
            return None
        module, scope, expr = symbol.module, symbol.scope, symbol.node
    return None


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


def _filled_elsewhere(name: str, *modules: ParsedModule) -> bool:
    """Whether the source changes the collection after binding it (`TOOLS.append(fn)` in a
    registry decorator, `TOOLS += [...]`, `TOOLS["x"] = f`, `SKIP.discard(f)`, `del
    TOOLS[0]`): then what is written is not what the loop (or a test `in` it) sees."""
    changed = re.compile(
        rf"\b{re.escape(name)}\s*(?:\.\s*(?:{_CHANGES})\s*\("
        r"|[-+|&^]=|\[[^\]\n]*\]\s*=[^=])"
        rf"|\bdel\s+{re.escape(name)}\b"
    )
    return any(changed.search(m.text or "") for m in modules)
