"""What a loop variable's key or attribute holds, for each value the loop takes.

Servers list their tools as records and register each one's function in a loop:

- dicts written out: `for spec in SPECS: mcp.add_tool(spec["func"], name=spec["name"])`;
- instances of a record class written out: `TOOLS = [ToolEntry(search, "search"), ...]` then
  `for entry in TOOLS: mcp.add_tool(entry.function, name=entry.name)`, where `ToolEntry` is a
  dataclass, a `NamedTuple`, a pydantic model or a class whose `__init__` stores each
  parameter once (`self.function = function`).

The value of `entry.function` is then what each constructor call passes for that field (by
position in the fields' order, or by keyword), or the field's default written as a constant.
Anything else (a record made by a factory, a field set after construction, a class with
bases of its own) is not guessed: the whole loop is then read as one whose values are not
listed, as before.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from .class_members import init_fields
from .records import record
from .signatures import function_params
from .source import ParsedModule
from .symbols import Defined, Names, Param, Scope

Part = tuple[str, str]
"""What is read of each value: `("key", "func")` for `spec["func"]`, `("get", "name")` for
`spec.get("name")` (None where the dict has no such key), `("attr", "function")` for
`entry.function`."""

_RECORD_BASES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple", "pydantic.BaseModel"})


_WRAPPERS = {"builtins.list": False, "builtins.tuple": False, "builtins.enumerate": True}
"""Calls iterating as the collection they are given does (numbered, for `enumerate`)."""


def unwrapped(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> tuple[ast.expr, str | None, bool]:
    """The collection a loop iterates, the dict method it calls on it (`TOOLS.items()`), and
    whether `enumerate` numbers the values: `for i, fn in enumerate(list(TOOLS)):` is `TOOLS`."""
    counted = False
    for _ in range(3):
        if not isinstance(expr, ast.Call) or len(expr.args) != 1 or expr.keywords:
            break
        if not isinstance(expr.func, ast.Name):
            break
        wrapper = _WRAPPERS.get(names.canonical(module, expr.func, scope) or "")
        if wrapper is None or (counted and wrapper):
            break
        counted, expr = counted or wrapper, expr.args[0]
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in _METHODS
        and not expr.args
        and not expr.keywords
    ):
        return expr.func.value, expr.func.attr, counted
    return expr, None, counted


def numbered(rows: tuple[ast.expr, ...]) -> tuple[ast.expr, ...]:
    """`enumerate`'s pairs of the values: `(0, a), (1, b)`."""
    return tuple(ast.Tuple([ast.Constant(i), row], ast.Load()) for i, row in enumerate(rows))


def part_of(node: ast.expr) -> tuple[ast.expr, Part | None]:
    """`spec["func"]` -> (`spec`, key "func"); `spec.get("name")` -> (`spec`, the key "name"
    or None); `entry.function` -> (`entry`, attribute "function"); anything else as it is, with
    no part."""
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    ):
        return node.value, ("key", node.slice.value)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, ast.Name)
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.func.value, ("get", node.args[0].value)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value, ("attr", node.attr)
    return node, None


def picked(
    names: Names, module: ParsedModule, scope: Scope | None, values: Sequence[ast.expr], part: Part
) -> tuple[ast.expr, ...] | None:
    """`part` of each value (read in `module`, at `scope`): None unless every one tells it."""
    kind, key = part
    out = []
    for value in values:
        found = (
            _field(names, module, scope, value, key) if kind == "attr" else _keyed(value, key, kind == "get")
        )
        if found is None:
            return None
        out.append(found)
    return tuple(out)


def _keyed(value: ast.expr, key: str, optional: bool = False) -> ast.expr | None:
    """`value[key]` of a dict written out with that key once; `value.get(key)` (`optional`) is
    `None` of one written out without it, whose every key is a string written there."""
    if not isinstance(value, ast.Dict):
        return None
    found = [
        v
        for k, v in zip(value.keys, value.values, strict=True)
        if isinstance(k, ast.Constant) and k.value == key
    ]
    if not found and optional and all(isinstance(k, ast.Constant) for k in value.keys):
        return ast.copy_location(ast.Constant(None), value)
    return found[0] if len(found) == 1 else None


def _field(
    names: Names, module: ParsedModule, scope: Scope | None, value: ast.expr, attr: str
) -> ast.expr | None:
    """`value.attr` of `value = Record(...)`: the argument the call passes for that field, or
    its default written as a constant."""
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Name | ast.Attribute):
        return None
    if any(isinstance(a, ast.Starred) for a in value.args) or any(k.arg is None for k in value.keywords):
        return None
    symbol = names.resolve(module, value.func, scope)
    symbol = names.follow(symbol) if symbol is not None else None
    if not isinstance(symbol, Defined) or not isinstance(symbol.node, ast.ClassDef):
        return None
    found = _fields(names, symbol)
    if found is None or attr not in found[1]:
        return None
    order, fields = found
    parameter, default, keyword_only = fields[attr]
    position = -1 if keyword_only else order.index(parameter)
    passed = next((k.value for k in value.keywords if k.arg == parameter), None)
    if passed is None and 0 <= position < len(value.args):
        passed = value.args[position]
    if passed is None and isinstance(default, ast.Constant):
        passed = default
    return passed


Fields = tuple[list[str], dict[str, tuple[str, ast.expr | None, bool]]]
"""A record class's constructor parameters in order, and its attributes -> the parameter each
holds, its default, and whether it is passed by keyword only."""


def _fields(names: Names, cls: Defined) -> Fields | None:
    """The fields of a project record class, when its source tells them all."""
    node = cls.node
    assert isinstance(node, ast.ClassDef)
    bases = [names.canonical(cls.module, b) for b in node.bases]
    own_init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    generated = _is_dataclass(names, cls) or (len(bases) == 1 and bases[0] in _RECORD_BASES)
    if not all(b in _RECORD_BASES or b == "builtins.object" for b in bases):
        return None  # a base of the project's, or one whose fields are not read: not guessed
    if generated and own_init is None:
        keyword_only = bases == ["pydantic.BaseModel"] or _keyword_only(node)
        listed = init_fields(node)
        return [name for name, _ in listed], {name: (name, s.value, keyword_only) for name, s in listed}
    return _stored(own_init) if own_init is not None and not bases else None


def _keyword_only(node: ast.ClassDef) -> bool:
    """`@dataclass(kw_only=True)`: every field is passed by keyword."""
    return any(
        isinstance(d, ast.Call)
        and any(
            k.arg == "kw_only" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
            for k in d.keywords
        )
        for d in node.decorator_list
    )


def _is_dataclass(names: Names, cls: Defined) -> bool:
    assert isinstance(cls.node, ast.ClassDef)
    return any(
        names.canonical(cls.module, d.func if isinstance(d, ast.Call) else d) == "dataclasses.dataclass"
        for d in cls.node.decorator_list
    )


def _stored(init: ast.FunctionDef) -> Fields | None:
    """`def __init__(self, function, name="x"): self.function = function; ...`: each attribute
    `__init__` stores a parameter in, once, at the top of its body."""
    params = function_params(init)
    if not params or init.args.vararg is not None or init.args.kwarg is not None:
        return None
    self_name = params[0][0].arg
    defaults = dict(
        zip(reversed([a.arg for a in init.args.args]), reversed(init.args.defaults), strict=False)
    )
    defaults.update({a.arg: d for a, d in zip(init.args.kwonlyargs, init.args.kw_defaults, strict=True) if d})
    keyword_only = {a.arg for a in init.args.kwonlyargs}
    order = [a.arg for a, *_ in params[1:]]
    stored: dict[str, str] = {}
    for stmt in init.body:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
        if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target = stmt.target
        value = stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
        if (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == self_name
            and isinstance(value, ast.Name)
            and value.id in order
        ):
            if target.attr in stored:
                return None
            stored[target.attr] = value.id
    return order, {
        attr: (param, defaults.get(param), param in keyword_only) for attr, param in stored.items()
    }


_METHODS = ("items", "values", "keys")


@record
class Members:
    """A namespace loop whose module is handed to its function (`passed_members.py`): the
    inner loop, where it is written, the name it lists (`module`), and the outer loop over
    the parameter that name takes its values from (None: the parameter is the module)."""

    loop: ast.For | ast.AsyncFor
    module: ParsedModule
    scope: Scope
    source: str
    each: ast.For | ast.AsyncFor | None


@record
class PassedLoop:
    """`for name, fn in tools.items():` in a function whose parameter `tools` is: the
    parameter, the dict method called on it, and the place of one variable in the unpacked
    target (None for a plain `for fn in tools:`)."""

    parameter: ast.arg
    method: str | None
    place: tuple[int, int] | None
    """(index, width) of the variable in the loop's target tuple."""
    loop: ast.For | ast.AsyncFor
    members: Members | None = None
    """A namespace loop over the modules the parameter is (`passed_members.py`)."""


@record
class Passed:
    """A registration's function (and name) read from a loop variable over a parameter:
    `entry.function` is (the loop, attribute "function")."""

    function: tuple[PassedLoop, Part | None]
    name: tuple[PassedLoop, Part | None] | None


def passed_variables(
    names: Names, module: ParsedModule, stmt: ast.stmt, scope: Scope | None
) -> dict[str, PassedLoop]:
    """Each variable of `stmt`, a loop over a parameter of the function `scope` is (or over its
    `.items()`), -> where it comes from; empty for any other statement."""
    if not isinstance(stmt, ast.For | ast.AsyncFor) or scope is None:
        return {}
    iterated: ast.expr = stmt.iter
    method = None
    if (
        isinstance(iterated, ast.Call)
        and isinstance(iterated.func, ast.Attribute)
        and iterated.func.attr in _METHODS
        and not iterated.args
        and not iterated.keywords
    ):
        method = iterated.func.attr
        iterated = iterated.func.value
    symbol = names.lookup(module, iterated.id, scope) if isinstance(iterated, ast.Name) else None
    if not isinstance(symbol, Param) or symbol.function is not scope.function:
        return {}
    target = stmt.target
    if isinstance(target, ast.Name):
        return {target.id: PassedLoop(symbol.node, method, None, stmt)}
    if not isinstance(target, ast.Tuple | ast.List):
        return {}
    width = len(target.elts)
    return {
        t.id: PassedLoop(symbol.node, method, (i, width), stmt)
        for i, t in enumerate(target.elts)
        if isinstance(t, ast.Name)
    }


def passed_of(
    variables: dict[str, PassedLoop],
    fn: ast.expr | ast.FunctionDef | ast.AsyncFunctionDef,
    name: ast.expr | None,
) -> Passed | None:
    """`fn` (`entry`, `entry.function`, `spec["func"]`) read from a loop over a parameter, and
    the tool's `name=` when it is read from the same loop."""
    if not isinstance(fn, ast.expr):
        return None
    variable, part = part_of(fn)
    loop = variables.get(variable.id) if isinstance(variable, ast.Name) else None
    if loop is None:
        return None
    named_by, name_part = part_of(name) if name is not None else (None, None)
    naming = variables.get(named_by.id) if isinstance(named_by, ast.Name) else None
    return Passed(
        (loop, part), (naming, name_part) if naming is not None and naming.loop is loop.loop else None
    )
