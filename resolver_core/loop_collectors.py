"""Registries a collecting decorator fills, which a loop then registers: `def tool(fn):
TOOLS.append(fn); return fn` over a module-level `TOOLS = []`, then `for fn in TOOLS:
mcp.add_tool(fn)`.

The source leaves the registry empty, so `loop_rows.rows_of` cannot read its values; what lands
is whatever each `@tool` decorates or each `tool(f)` passes, followed from the collector's
parameter (`reach.py`), as for `def tool(fn): mcp.add_tool(fn)`. The registries read so, as
published servers write them:

- a list (`TOOLS.append(fn)`), a set (`TOOLS.add(fn)`) or a dict (`TOOLS[fn.__name__] = fn`,
  `TOOLS[name] = fn`, or a record holding it: `TOOLS[name] = {"function": fn, ...}`, the loop
  registering `entry["function"]`) bound empty at module level, looped over itself (or
  `sorted(TOOLS, key=...)`), or a dict's `.values()` / `.items()`;
- the same held by an instance (`registry = ToolRegistry()`, whose `__init__` binds
  `self.tools = []` or `{}`), filled by a method (`@registry.tool`), looped over as
  `registry.tools`: only the applications on that instance land (`Collector.instance`);
- the collecting function a decorator factory returns (`def tool(name): def deco(fn):
  TOOLS[name] = fn ...; return deco`, `@tool("x")`), a module function's or a method's.

Exactly one function may fill the registry; anything else is not read (the loop is said as not
analysed). A dict keyed by name registers under its key when the loop passes it
(`for name, fn in TOOLS.items(): mcp.add_tool(fn, name=name)`): `Collector.key`, read in the
collector's scope (`fn.__name__`: the function's own name; a factory's `name`: what each
`@tool("x")` passes; the collector's own `name`: what each `register_tool("x", fn)` passes),
and holds the last function stored under a key (`kept_last`).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from .bindings import Defined
from .records import record
from .signatures import own_nodes, returns_of
from .source import ParsedModule
from .symbols import Names, Scope, Value

if TYPE_CHECKING:
    from .registration_site import Registration

FunctionDef = ast.FunctionDef | ast.AsyncFunctionDef


@record
class Collector:
    """`def tool(fn): TOOLS.append(fn); return fn`: the function that fills a registry the source
    leaves empty; a loop over that registry registers whatever each `@tool` decorates or each
    `tool(f)` passes (followed from the collector's parameter, as for `def tool(fn): mcp.add_tool(fn)`)."""

    module: ParsedModule
    function: FunctionDef
    parameter: ast.Name
    """`fn` as the collector stores it: the registered expression, read in its body."""
    scope: Scope
    """The collector's body (its factory's, or none, around it): where `parameter` and `key` are read."""
    key: ast.expr | None = None
    """`TOOLS[key] = fn`: the key a dict registry stores the function under."""
    field: str | None = None
    """`TOOLS[key] = {"function": fn, ...}`: the field of the record a dict registry stores
    that holds the function (the loop registers `entry["function"]`)."""
    instance: Value | None = None
    """`registry = ToolRegistry()` whose `registry.tools` the loop runs over: only what
    `@registry.tool` (that instance's method) collects is in it."""
    row: ast.Tuple | None = None
    """`TOOLS.append((fn, name, description))`: the tuple a list registry stores, which the loop
    unpacks (`for fn, name, description in TOOLS:`); `key` is then the item its name variable takes."""


def _empty(node: ast.expr) -> bool:
    """`[]`, `{}`, `list()`, `dict()`, `set()` (not `list(BASE)`: what that copies is in it too)."""
    if isinstance(node, ast.List):
        return not node.elts
    if isinstance(node, ast.Dict):
        return not node.keys
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("list", "dict", "set")
        and not node.args
        and not node.keywords
    )


def _is_store(target: ast.expr, owner: str | None, name: str) -> bool:
    """`NAME` (owner None) or `owner.NAME` (`self.tools`)."""
    if owner is None:
        return isinstance(target, ast.Name) and target.id == name
    return (
        isinstance(target, ast.Attribute)
        and target.attr == name
        and isinstance(target.value, ast.Name)
        and target.value.id == owner
    )


Filled = tuple[ast.Name, ast.expr | None, str | None, ast.Tuple | None]
"""The parameter a registry is filled with, as the statement stores it, the key a dict stores it
under, the record's field holding it (`TOOLS[name] = {"function": fn, ...}`), and the tuple a
list stores it in (`TOOLS.append((fn, name, description))`)."""


def _filled(fn: FunctionDef, owner: str | None, name: str, first: int) -> list[Filled]:
    """`NAME.append(p)`, `NAME.add(p)`, `NAME.append((p, name, ...))`, `NAME[key] = p` or
    `NAME[key] = {"function": p, ...}` (`owner.NAME` for an instance's) in `fn`'s own body, `p`
    a parameter after the `first` bound ones (`self`)."""
    params = {a.arg for a in fn.args.args[first:]}
    wrapper = returned_local(fn)
    if wrapper is not None:  # `TOOLS.append(wrapper)` of the `functools.wraps` wrapper it returns
        params.add(wrapper)
    out: list[Filled] = []
    for stmt in fn.body:
        if isinstance(stmt, ast.Expr) and isinstance(call := stmt.value, ast.Call):
            if (
                isinstance(call.func, ast.Attribute)
                and call.func.attr in ("append", "add")
                and _is_store(call.func.value, owner, name)
                and len(call.args) == 1
            ):
                row = (
                    call.args[0]
                    if isinstance(call.args[0], ast.Tuple) and call.func.attr == "append"
                    else None
                )
                stored = row.elts if row is not None else call.args
                out += [(e, None, None, row) for e in stored if isinstance(e, ast.Name) and e.id in params]
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
            if not isinstance(target, ast.Subscript) or not _is_store(target.value, owner, name):
                continue
            if isinstance(value, ast.Name) and value.id in params:
                out.append((value, target.slice, None, None))
            elif isinstance(value, ast.Dict):  # a record of the function and what describes it
                out += [
                    (v, target.slice, k.value, None)
                    for k, v in zip(value.keys, value.values, strict=True)
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)
                    if isinstance(v, ast.Name) and v.id in params
                ]
    return out


def returned_local(fn: FunctionDef) -> str | None:
    """The name of the local def `fn` returns on every path (`@functools.wraps(fn) def
    wrapper(...): ...`, then `return wrapper`), bound nowhere else in it: what a decorator
    stores in a registry or registers (`TOOLS.append(wrapper)`, `mcp.add_tool(wrapper)`) is
    then what it hands back for the def it decorates, which is what lands."""
    returns = returns_of(fn)
    if not returns or not all(isinstance(r.value, ast.Name) for r in returns):
        return None
    named = {r.value.id for r in returns}  # type: ignore[union-attr]
    if len(named) != 1:
        return None
    name = named.pop()
    local = [s for s in fn.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == name]
    stored = [
        n
        for n in own_nodes(fn)
        if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
    ]
    return name if len(local) == 1 and not stored else None


def _fillers(
    module: ParsedModule,
    body: list[ast.stmt],
    owner: str | None,
    name: str,
    prefix: str,
    parent: Scope | None,
) -> list[tuple[FunctionDef, Filled, Scope]]:
    """The functions of `body` (and the decorators each one returns, one level in) that fill
    `name` (`owner.name`) with their first parameter (after `self` for a method's own)."""
    found = []
    for stmt in body:
        if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        scope = Scope(module, stmt, f"{prefix}{stmt.name}", parent)
        first = 1 if owner is not None else 0
        found += [(stmt, filled, scope) for filled in _filled(stmt, owner, name, first)]
        for inner in stmt.body:  # `def tool(name): def deco(fn): TOOLS[name] = fn; return deco`
            if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                nested = Scope(module, inner, f"{scope.qualname}.<locals>.{inner.name}", scope)
                found += [(inner, filled, nested) for filled in _filled(inner, owner, name, 0)]
    return found


_COPIES = frozenset({"builtins.sorted", "builtins.list", "builtins.tuple"})
"""What a loop may run over instead of the registry itself, holding the same functions
(`sorted(REGISTRY, key=lambda f: f.__name__)`)."""


def _unwrapped(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> tuple[ast.expr, str | None] | None:
    """`TOOLS.values()` / `TOOLS.items()` (a dict's) as `TOOLS` and the method; a plain `TOOLS`
    as itself (a list's or set's elements, or a dict's keys: no functions), also copied or
    sorted first (`sorted(TOOLS, key=...)`)."""
    if not isinstance(expr, ast.Call):
        return expr, None
    func = expr.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr in ("values", "items")
        and not expr.args
        and not expr.keywords
    ):
        return func.value, func.attr
    if (
        len(expr.args) == 1
        and all(k.arg in ("key", "reverse") for k in expr.keywords)
        and names.canonical(module, func, scope) in _COPIES
    ):
        return _unwrapped(names, module, expr.args[0], scope)
    return None


def _module_collector(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> list[Collector]:
    """The collectors of a module-level registry `expr` names."""
    symbol = names.resolve(module, expr, scope) if isinstance(expr, ast.Name | ast.Attribute) else None
    if not isinstance(symbol, Value) or symbol.scope is not None or symbol.module.tree is None:
        return []
    if not _empty(symbol.node):
        return []
    return [
        Collector(symbol.module, fn, param, inner, key, field, row=row)
        for fn, (param, key, field, row), inner in _fillers(
            symbol.module, symbol.module.tree.body, None, symbol.name, "", None
        )
    ]


def _instance_collector(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> list[Collector]:
    """The collectors of `registry.tools`, `registry` a module-level instance of a project class
    whose `__init__` binds `self.tools` empty once."""
    if not isinstance(expr, ast.Attribute) or not isinstance(expr.value, ast.Name | ast.Attribute):
        return []
    held = names.resolve(module, expr.value, scope)
    instance = names.follow(held) if held is not None else None
    if (
        not isinstance(instance, Value)
        or instance.scope is not None
        or not isinstance(instance.node, ast.Call)
    ):
        return []
    made = names.resolve(instance.module, instance.node.func, None)
    cls = names.follow(made) if made is not None else None
    if not isinstance(cls, Defined) or not isinstance(cls.node, ast.ClassDef):
        return []
    init = next((s for s in cls.node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None or not init.args.args:
        return []
    this = init.args.args[0].arg
    stored = [
        s.value
        for s in init.body
        if (isinstance(s, ast.Assign) and len(s.targets) == 1 and _is_store(s.targets[0], this, expr.attr))
        or (isinstance(s, ast.AnnAssign) and _is_store(s.target, this, expr.attr))
    ]
    if len(stored) != 1 or stored[0] is None or not _empty(stored[0]):
        return []
    found = []
    for stmt in cls.node.body:
        if (
            isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
            and stmt.args.args
            and not stmt.decorator_list
        ):
            owner = stmt.args.args[0].arg
            found += [
                Collector(cls.module, fn, param, inner, key, field, instance, row)
                for fn, (param, key, field, row), inner in _fillers(
                    cls.module, [stmt], owner, expr.attr, f"{cls.node.name}.", None
                )
            ]
    return found


def collector_of_loop(
    names: Names, module: ParsedModule, stmt: ast.stmt, scope: Scope | None
) -> tuple[str, Collector, str | None] | None:
    """`for fn in TOOLS:` where `TOOLS = []` is filled by one decorator (or `for name, fn in
    TOOLS.items():` of a dict it fills, `for fn in registry.tools:` of an instance's): the loop
    variable taking the functions, that decorator, and the variable taking the keys (if any)."""
    if not isinstance(stmt, ast.For | ast.AsyncFor):
        return None
    target = stmt.target
    pair = (
        isinstance(target, ast.Tuple)
        and len(target.elts) == 2
        and all(isinstance(e, ast.Name) for e in target.elts)
    )
    unwrapped = _unwrapped(names, module, stmt.iter, scope)
    if unwrapped is None:
        return None
    registry, method = unwrapped
    unpacked = isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts)
    if (method == "items") != pair and not (method is None and unpacked):
        return None
    if not (pair or unpacked or isinstance(target, ast.Name)):
        return None
    found = _module_collector(names, module, registry, scope) or _instance_collector(
        names, module, registry, scope
    )
    if len(found) != 1:
        return None
    collector = found[0]
    if collector.row is not None or (method is None and unpacked):  # `for fn, name, doc in TOOLS:`
        return _row_variables(collector, target) if method is None and unpacked else None
    if (method is not None) != (
        collector.key is not None
    ):  # `.values()` of a list, or a dict looped over its keys
        return None
    if pair:
        key, fn = target.elts  # type: ignore[attr-defined]
        return fn.id, collector, key.id
    assert isinstance(target, ast.Name)
    return target.id, collector, None


def _row_variables(collector: Collector, target: ast.expr) -> tuple[str, Collector, str | None] | None:
    """`for fn, name, doc in TOOLS:` over the tuples `TOOLS.append((fn, name, doc))` stores: the
    variable taking the functions, the collector, and the variable taking the first item beside
    it written as a name or a text (the tool's name, when the loop passes it: `Collector.key`)."""
    row = collector.row
    if row is None or not isinstance(target, ast.Tuple) or len(target.elts) != len(row.elts):
        return None
    variables = [e.id for e in target.elts if isinstance(e, ast.Name)]
    at = next((i for i, e in enumerate(row.elts) if e is collector.parameter), None)
    if at is None or len(variables) != len(row.elts):
        return None
    named = next(
        (
            i
            for i, e in enumerate(row.elts)
            if i != at
            and (isinstance(e, ast.Name) or (isinstance(e, ast.Constant) and isinstance(e.value, str)))
        ),
        None,
    )
    if named is None:
        return variables[at], collector, None
    return variables[at], replace(collector, key=row.elts[named]), variables[named]


def kept_last(regs: Sequence[Registration]) -> list[Registration]:
    """`regs` without the functions a dict registry no longer holds when the loop runs: a key
    stored twice (`@tool("lookup")` on two defs of one module) keeps the last def only, which is
    all the SDK is handed. Keys read apart (a computed one) and defs of different modules (which
    runs last is the imports' to say) are all kept."""
    last: dict[tuple[int, str, str], Registration] = {}
    for reg in regs:
        key = _stored_under(reg)
        if key is not None:
            held = last.get(key)
            if held is None or _line(held) <= _line(reg):
                last[key] = reg
    kept = {id(reg) for reg in last.values()}
    return [reg for reg in regs if _stored_under(reg) is None or id(reg) in kept]


def _stored_under(reg: Registration) -> tuple[int, str, str] | None:
    """The dict registry, module and key a def lands under (`Registration.collector`): its own
    name for `TOOLS[fn.__name__] = fn`, the string the decorator's call passes for a factory's
    parameter (`TOOLS[name] = fn` under `@tool("lookup")`); None for any other key."""
    collector, fn = reg.collector, reg.fn
    if collector is None or collector.key is None or collector.row is not None:
        return None  # (a list of tuples keeps each one stored)
    key, factory = collector.key, collector.scope.parent
    where = (id(collector.function), reg.module.display)
    if reg.landed_at is not None:  # `register_tool("lookup", t)`: the key its call passes
        return _passed_key(where, key, collector.function, reg.landed_at)
    if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    if by_own_name(collector):
        return (*where, fn.name)
    made = factory.function if factory is not None else None
    call = reg.decorator
    if not isinstance(made, FunctionDef) or not isinstance(call, ast.Call):
        return None
    return _passed_key(where, key, made, call)


def _passed_key(
    where: tuple[int, str], key: ast.expr, made: FunctionDef, call: ast.Call
) -> tuple[int, str, str] | None:
    """The string `call` of `made` passes for the parameter the registry's `key` names."""
    if not isinstance(key, ast.Name):
        return None
    params = [a.arg for a in made.args.args]
    if key.id not in params:
        return None
    index = params.index(key.id) - (
        params[:1] in (["self"], ["cls"]) and isinstance(call.func, ast.Attribute)
    )
    passed = call.args[index] if index < len(call.args) else None
    passed = passed or next((k.value for k in call.keywords if k.arg == key.id), None)
    return (
        (*where, passed.value) if isinstance(passed, ast.Constant) and isinstance(passed.value, str) else None
    )


def by_own_name(collector: Collector) -> bool:
    """`TOOLS[fn.__name__] = fn`: a dict registry keyed by each function's own name."""
    key = collector.key
    return (
        isinstance(key, ast.Attribute)
        and key.attr == "__name__"
        and isinstance(key.value, ast.Name)
        and key.value.id == collector.parameter.id
    )


def _line(reg: Registration) -> int:
    return getattr(reg.fn, "lineno", 0)


def on_instance(
    names: Names, collector: Collector | None, module: ParsedModule, used: ast.expr, scope: Scope | None
) -> bool:
    """Whether a use of a collector (`@registry.tool`, `@registry.tool("x")`, `registry.tool(f)`)
    is on the instance whose registry the loop runs over, when it is an instance's
    (`Collector.instance`): another instance of the class collects into its own."""
    instance = collector.instance if collector is not None else None
    if instance is None:
        return True
    func = used.func if isinstance(used, ast.Call) else used
    held = names.resolve(module, func.value, scope) if isinstance(func, ast.Attribute) else None
    held = names.follow(held) if held is not None else None
    return isinstance(held, Value) and held.node is instance.node
