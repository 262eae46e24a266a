"""A registration's arguments unpacked from a dict: `mcp.add_tool(**config)`.

Published servers keep each tool's options in a dict (`{"fn": search, "name": "docs_search",
"description": ...}`), written out in a list or built in the loop that registers them, and hand
it whole to `add_tool`. The SDK then registers `config["fn"]` under `config["name"]`, or under
the function's own name where the dict has no `name`. The call is read as the one it stands for,
`mcp.add_tool(config["fn"], name=config.get("name"))`: where the loop lists the dicts, each
one's function and name are read (`loop_entries.py`); elsewhere the function is one mcpdeps
cannot name, said so as any other. The dict may be written in the loop's body instead, from
each record (`kwargs = {"name": spec["name"], ...}; mcp.tool(**kwargs)(spec["func"])`): its
entries are read where it is written.

Options kept per function in a dict written out, `mcp.add_tool(fn, **OPTIONS.get(fn.__name__,
{}))` in a loop over functions, name each tool by the entry of its function's name
(`loop_names.py` puts the name in the place of `fn.__name__`): `folded` reads that lookup.
"""

from __future__ import annotations

import ast

from .source import ParsedModule
from .symbols import Names, Scope, Value

ADDED = ("fn", "name")
"""The `add_tool` parameters read out of an unpacked dict, in their order (the others tell
nothing of what lands)."""

APPLIED = ("name",)
"""The same of `tool(**options)`, the decorator applied (`mcp.tool(**kwargs)(fn)`)."""


def spelt_out(
    call: ast.Call, fields: tuple[str, ...], names: Names, module: ParsedModule, scope: Scope | None
) -> ast.Call:
    """`call` with the `fields` a `**options` keyword hands it written as keywords: the entries
    of the dict literal `options` is bound to (`kwargs = {"name": spec["name"], ...}` in the
    loop's body; `None` for a name it has no entry for), else `options["fn"]` and
    `options.get("name")` (a loop's variable, `loop_entries.py`); `call` itself when it unpacks
    nothing, or already passes them."""
    unpacked = [k.value for k in call.keywords if k.arg is None]
    if len(unpacked) != 1:
        return call
    options = unpacked[0]
    given = {k.arg for k in call.keywords} | set(fields[: len(call.args)])
    table = _written(names, module, scope, options)
    spelt = [
        ast.copy_location(ast.keyword(field, _read(options, field, table)), options)
        for field in fields
        if field not in given
    ]
    if not spelt:
        return call
    kept = [k for k in call.keywords if k.arg is not None]
    return ast.copy_location(ast.Call(call.func, call.args, [*kept, *spelt]), call)


def _written(names: Names, module: ParsedModule, scope: Scope | None, options: ast.expr) -> ast.Dict | None:
    """The dict literal a name is bound to, when nothing the module writes sets its `name`."""
    if not isinstance(options, ast.Name):
        return None
    symbol = names.lookup(module, options.id, scope)
    if not isinstance(symbol, Value) or not isinstance(symbol.node, ast.Dict):
        return None
    text = module.text or ""
    if any(f"{options.id}[{quote}name{quote}]" in text for quote in "'\""):
        return None  # `kwargs["name"] = ...` later: not read here
    return symbol.node


def _read(options: ast.expr, field: str, table: ast.Dict | None) -> ast.expr:
    """The dict literal's entry for `field` (None where it has none and every key is written
    out), or `options["fn"]` (required: the SDK needs a function), `options.get("name")`."""
    if table is not None:
        found = [
            v
            for k, v in zip(table.keys, table.values, strict=True)
            if isinstance(k, ast.Constant) and k.value == field
        ]
        if len(found) == 1:
            return found[0]
        if not found and field != "fn" and all(isinstance(k, ast.Constant) for k in table.keys):
            return ast.copy_location(ast.Constant(None), table)
    key = ast.Constant(field)
    if field == "fn":
        node: ast.expr = ast.Subscript(options, key, ast.Load())
    else:
        node = ast.Call(ast.Attribute(options, "get", ast.Load()), [key], [])
    for each in ast.walk(node):
        ast.copy_location(each, options)
    return node


Named = tuple[ParsedModule, ast.expr | None, Scope | None]


def folded(names: Names, named: Named) -> Named:
    """A tool's `name=` that looks a string up in dicts written out (`OPTIONS.get("search",
    {}).get("name")`, `NAMES["search"]`) as the constant it finds (`None`: no name, the
    function's own); as it is when a lookup is not of a dict written out."""
    module, node, scope = named
    if not isinstance(node, ast.Call | ast.Subscript):
        return named
    found = _looked_up(names, module, node, scope, 0)
    if not isinstance(found, ast.Constant) or not (found.value is None or isinstance(found.value, str)):
        return named
    return module, ast.copy_location(ast.Constant(found.value), node), scope


def _looked_up(
    names: Names, module: ParsedModule, node: ast.expr, scope: Scope | None, depth: int
) -> ast.expr | None:
    """What `D[k]`, `D.get(k)` or `D.get(k, default)` gives of a dict written out; None when
    the source does not tell."""
    if depth > 8:
        return None
    if isinstance(node, ast.Name):
        symbol = names.lookup(module, node.id, scope)
        return symbol.node if isinstance(symbol, Value) and isinstance(symbol.node, ast.Dict) else None
    if isinstance(node, ast.Dict | ast.Constant):
        return node
    if isinstance(node, ast.Subscript):
        base, key, default = node.value, node.slice, None
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and 1 <= len(node.args) <= 2
        and not node.keywords
    ):
        base, key = node.func.value, node.args[0]
        default = node.args[1] if len(node.args) == 2 else ast.Constant(None)
    else:
        return None
    table = _looked_up(names, module, base, scope, depth + 1)
    if not isinstance(table, ast.Dict) or not isinstance(key, ast.Constant):
        return None
    if not all(isinstance(k, ast.Constant) for k in table.keys):
        return None  # `**more` among the entries: which keys it adds is not read
    found = [
        v
        for k, v in zip(table.keys, table.values, strict=True)
        if isinstance(k, ast.Constant) and k.value == key.value
    ]
    if found:
        return _looked_up(names, module, found[-1], scope, depth + 1)
    return None if default is None else _looked_up(names, module, default, scope, depth + 1)
