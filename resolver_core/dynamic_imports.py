"""Modules imported by a name built at run time, read as the loops that build it list them.

Published servers find their feature modules at start-up instead of importing each:
`for info in pkgutil.iter_modules(__path__):` in a package's `__init__`, each bound by
`importlib.import_module(f"{__name__}.{info.name}")`, or `for name in ("weather", "news"):`
with `importlib.import_module(f"app.tools.{name}")`, then `module.register(mcp)`. The SDK
registers what each module's `register` registers, so the call is read as one call per
module, as a loop over modules written out is (`literal_loops.in_loop_place`): each module stands in
the call's place as an `Imported` node, which `Names.resolve` reads as that module.

What `pkgutil.iter_modules` yields is the package's folder as `pkgutil._iter_file_finder_modules`
reads it: the names sorted, a module per loader suffix, a folder only when it holds an
`__init__`, names with a dot left out; `walk_packages` goes into each subpackage after
yielding it. The listing is the run's `ModuleSearch`'s (the one the imports read, once per
folder): no walk of its own. A name not written out (read from a setting, a file) is not
followed; the registrations it would reach take no server from it, as before. A registrar
looked up in a dict written out by each key a loop takes (`for name in REGISTRARS:
REGISTRARS[name](mcp)`) is read the same way: the call is made on each value. A call the
loop's body skips for some values (`if info.name.startswith("_"): continue`) is made on the
others only (`loop_filters.py`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import TypeGuard

from .bindings import Element, Imported, Missing, ModuleRef, Scope, Value
from .literal_loops import LiteralLoop, in_loop_place, listed_loop
from .loop_conditions import ModuleInfo
from .loop_filters import filtered, reaching
from .source import ParsedModule
from .symbols import Names
from .written_collections import written_collection

_MAX_VALUES = 256
"""Names a string expression may stand for before it is not followed (products of loops)."""
_IMPORTERS = frozenset({"importlib.import_module"})
_WALKS = {"iter_modules": False, "walk_packages": True}
"""The listing functions read, and whether each goes into subpackages."""


def loop_values(
    names: Names, module: ParsedModule, stmt: ast.stmt, scope: Scope | None
) -> LiteralLoop | None:
    """`literal_loops.listed_loop`, or a loop over what `pkgutil.iter_modules(...)` yields, with the
    values its body's filters leave out of some calls (`loop_filters`)."""
    loop = listed_loop(names, module, stmt, scope) or _package_loop(names, module, stmt, scope)
    return filtered(names, module, stmt, scope, loop)


def placed(
    names: Names, module: ParsedModule, func: ast.expr, scope: Scope | None, loops: Sequence[LiteralLoop]
) -> list[ast.expr]:
    """`literal_loops.in_loop_place`, and each call through a module `importlib.import_module`
    imports (`module.register` where `module = importlib.import_module(f"app.tools.{name}")`,
    or the call written in place) made on each module the name it is given can be."""
    loops = reaching(func, loops)
    out: list[ast.expr] = []
    for each in _keyed(names, module, func, scope, loops) or in_loop_place(func, loops):
        modules = _imported(names, module, each, scope, loops)
        if modules is None:
            out.append(each)
        elif not isinstance(each, ast.Attribute):
            out += [Imported(m) for m in modules]
        else:
            if not _guarded(module, each):
                modules = _until_missing(names, modules, each.attr)
            out += [ast.Attribute(Imported(m), each.attr, ast.Load()) for m in modules]
    return out


def _keyed(
    names: Names, module: ParsedModule, func: ast.expr, scope: Scope | None, loops: Sequence[LiteralLoop]
) -> list[ast.expr]:
    """`REGISTRARS[name]` inside `for name in REGISTRARS:`, the dict written out (here, or in
    another module: its values read there, as `Element`s): the value of each key the loop
    variable takes; empty when it is not that."""
    if (
        isinstance(func, Element)
        or not isinstance(func, ast.Subscript)
        or not isinstance(func.slice, ast.Name)
    ):
        return []
    keys = in_loop_place(func.slice, loops)
    found = written_collection(names, module, func.value, scope) if keys != [func.slice] else None
    if found is None:
        return []
    where, where_scope, table = found
    if not isinstance(table, ast.Dict):
        return []
    out: list[ast.expr] = []
    for key in keys:
        key = key.written if isinstance(key, Element) else key
        values = [v for k, v in zip(table.keys, table.values, strict=True) if _same_key(k, key)]
        if len(values) != 1:
            return []
        out.append(values[0] if where is module else Element(func.value, 0, where, values[0], where_scope))
    return out


def _same_key(written: ast.expr | None, key: ast.expr) -> bool:
    return isinstance(written, ast.Constant) and isinstance(key, ast.Constant) and written.value == key.value


def _guarded(module: ParsedModule, func: ast.Attribute) -> bool:
    """Whether the text tests for the attribute before the call (`if hasattr(module,
    "register"):`): then a module without it is skipped, not the end of the start-up."""
    if not isinstance(func.value, ast.Name):
        return False
    guard = re.compile(
        rf"""hasattr\(\s*{re.escape(func.value.id)}\s*,\s*["']{re.escape(func.attr)}["']\s*\)"""
    )
    return guard.search(module.text or "") is not None


def _until_missing(names: Names, modules: list[ParsedModule], attr: str) -> list[ParsedModule]:
    """The modules before the first one without `attr`: there the call raises AttributeError
    and the server's start-up ends; the registrations that ran are those before it."""
    for at, found in enumerate(modules):
        symbol = names.member(ModuleRef(found), attr)
        if isinstance(symbol, Missing) and symbol.certain:
            return modules[:at]
    return modules


def _imported(
    names: Names, module: ParsedModule, func: ast.expr, scope: Scope | None, loops: Sequence[LiteralLoop]
) -> list[ParsedModule] | None:
    """The project modules `func`'s base stands for when an `import_module` call makes it."""
    base = func.value if isinstance(func, ast.Attribute) else func
    where, at = module, scope
    if isinstance(base, ast.Name):
        if not _assigned_import(names, module, base.id, scope):
            return None
        symbol = names.resolve(module, base, scope)
        if not isinstance(symbol, Value) or not isinstance(symbol.node, ast.Call):
            return None
        where, at, base = symbol.module, symbol.scope, symbol.node
    if not _spelled(base, "import_module") or names.canonical(where, base.func, at) not in _IMPORTERS:
        return None
    package = _argument(base, 1, "package")
    wanted = _strings(names, where, base.args[0] if base.args else None, at, loops)
    bases = _strings(names, where, package, at, loops) if package is not None else [""]
    if wanted is None or bases is None:
        return None
    found = (names.project.find(_absolute(name, anchor), where) for name in wanted for anchor in bases)
    return list({id(m): m for m in found if m is not None}.values())


def _spelled(node: ast.AST, *functions: str) -> TypeGuard[ast.Call]:
    """Whether `node` is a call of a function of one of these names, as written (told before
    the name is resolved: resolving an imported name parses its module, which a run confined
    to some files must not do, `confined.py`)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)) in functions


def _assigned_import(names: Names, module: ParsedModule, name: str, scope: Scope | None) -> bool:
    """Whether `name`, where it is read, is bound by an assignment of an `import_module(...)`
    call (looked up in the bindings, following no import)."""
    while scope is not None and name not in scope.bindings:
        scope = scope.parent
    binding = scope.bindings[name] if scope is not None else names.table(module).get(name)
    return binding is not None and binding.kind == "value" and _spelled(binding.node, "import_module")


def _absolute(name: str, package: str) -> str:
    """`importlib.import_module(name, package)`'s module (`importlib._bootstrap._resolve_name`)."""
    level = len(name) - len(name.lstrip("."))
    if not level:
        return name
    base = package.rsplit(".", level - 1)[0] if package else ""
    return f"{base}.{name[level:]}" if name[level:] else base


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    if len(call.args) > position:
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _strings(
    names: Names,
    module: ParsedModule,
    expr: ast.expr | None,
    scope: Scope | None,
    loops: Sequence[LiteralLoop],
) -> list[str] | None:
    """Every text `expr` can be where it is written, the loops around it taking each of their
    values; None when it is not written out. Of the loops' variables, one at most: two taken
    in step would make texts no run builds."""
    found = _texts(names, module, expr, scope, loops, set())
    return found[0] if found is not None and len(found[1]) <= 1 else None


def _texts(
    names: Names,
    module: ParsedModule,
    expr: ast.expr | None,
    scope: Scope | None,
    loops: Sequence[LiteralLoop],
    seen: set[str],
) -> tuple[list[str], set[str]] | None:
    """`_strings`, with the loop variables the texts were taken from."""
    if isinstance(expr, ast.Constant):
        return ([expr.value], set()) if isinstance(expr.value, str) else None
    if isinstance(expr, ast.Name) and expr.id in ("__name__", "__package__"):  # the module's globals
        return [module.name if expr.id == "__name__" else module.package], set()
    if isinstance(expr, ast.Name | ast.Attribute):
        listed = _in_loop(expr, loops)
        if listed is not None:
            variable, values = listed
            texts = [v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
            return (texts, {variable}) if len(texts) == len(values) else None
        return _named(names, module, expr, scope, loops, seen)
    if isinstance(expr, ast.JoinedStr):
        parts: list[ast.expr] = [
            v.value
            if isinstance(v, ast.FormattedValue) and v.conversion == -1 and v.format_spec is None
            else v
            for v in expr.values
        ]
        if any(isinstance(p, ast.FormattedValue) for p in parts):
            return None
        return _joined(names, module, parts, scope, loops, seen)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _joined(names, module, [expr.left, expr.right], scope, loops, seen)
    return None


def _joined(
    names: Names,
    module: ParsedModule,
    parts: list[ast.expr],
    scope: Scope | None,
    loops: Sequence[LiteralLoop],
    seen: set[str],
) -> tuple[list[str], set[str]] | None:
    texts, variables = [""], set()
    for part in parts:
        found = _texts(names, module, part, scope, loops, seen)
        if found is None or len(texts) * len(found[0]) > _MAX_VALUES:
            return None
        texts = [t + f for t in texts for f in found[0]]
        variables |= found[1]
    return texts, variables


def _named(
    names: Names,
    module: ParsedModule,
    expr: ast.Name | ast.Attribute,
    scope: Scope | None,
    loops: Sequence[LiteralLoop],
    seen: set[str],
) -> tuple[list[str], set[str]] | None:
    """A module's `__name__` (`pkg.__name__`), or a name bound once to a text (`PACKAGE = "app.tools"`)."""
    if isinstance(expr, ast.Attribute) and expr.attr == "__name__":
        owner = names.resolve(module, expr.value, scope)
        owner = names.follow(owner) if owner is not None else None
        return ([owner.module.name], set()) if isinstance(owner, ModuleRef) else None
    symbol = names.resolve(module, expr, scope)
    if not isinstance(symbol, Value) or symbol.name in seen:
        return None
    return _texts(names, symbol.module, symbol.node, symbol.scope, loops, seen | {symbol.name})


def _in_loop(
    expr: ast.Name | ast.Attribute, loops: Sequence[LiteralLoop]
) -> tuple[str, list[ast.expr]] | None:
    """The values a loop variable takes (`name`), or a field of the `ModuleInfo`s it takes
    (`info.name`), innermost loop first."""
    field = None
    if isinstance(expr, ast.Attribute):
        field, expr = expr.attr, expr.value  # type: ignore[assignment]
    if not isinstance(expr, ast.Name):
        return None
    for loop in reversed(loops):
        placed = in_loop_place(expr, [loop])
        if placed == [expr]:
            continue
        if field is None:
            return expr.id, placed
        if field not in ("name", "ispkg") or not all(isinstance(v, ModuleInfo) for v in placed):
            return None
        index = 1 if field == "name" else 2
        return expr.id, [v.elts[index] for v in placed if isinstance(v, ModuleInfo)]
    return None


def _package_loop(
    names: Names, module: ParsedModule, stmt: ast.stmt, scope: Scope | None
) -> LiteralLoop | None:
    """`for info in pkgutil.iter_modules(__path__):` (or `pkg.__path__`, `walk_packages`, with
    a `prefix`): the variable (or the variables unpacking each) and the `ModuleInfo`s yielded."""
    if not isinstance(stmt, ast.For | ast.AsyncFor) or not _spelled(stmt.iter, *_WALKS):
        return None
    call = stmt.iter
    called = names.canonical(module, call.func, scope) or ""
    walk = _WALKS.get(called.removeprefix("pkgutil.")) if called.startswith("pkgutil.") else None
    if walk is None:
        return None
    package = _path_of(names, module, _argument(call, 0, "path"), scope)
    prefix_expr = _argument(call, 1, "prefix")
    prefixes = _strings(names, module, prefix_expr, scope, ()) if prefix_expr is not None else [""]
    if package is None or prefixes is None or len(prefixes) != 1:
        return None
    values: list[ast.expr] = [
        ModuleInfo(*found) for found in _listed(names, module, package, prefixes[0], walk)
    ]
    target = stmt.target
    if isinstance(target, ast.Name):
        return target.id, values
    if isinstance(target, ast.Tuple | ast.List) and len(target.elts) == 3:
        variables = tuple(t.id if isinstance(t, ast.Name) else "" for t in target.elts)
        return variables, values
    return None


def _path_of(
    names: Names, module: ParsedModule, expr: ast.expr | None, scope: Scope | None
) -> ParsedModule | None:
    """The package whose folder `expr` is: `__path__` in its `__init__`, `pkg.__path__`, or
    the folder of the module's own file (`[os.path.dirname(__file__)]`, `[str(Path(__file__).parent)]`)."""
    if isinstance(expr, ast.Name) and expr.id == "__path__":  # a package's global
        return module if module.is_package else None
    if (
        isinstance(expr, ast.List | ast.Tuple)
        and len(expr.elts) == 1
        and _own_folder(names, module, expr.elts[0], scope)
    ):
        return module if module.is_package else names.project.find(module.package, module)
    if isinstance(expr, ast.Attribute) and expr.attr == "__path__":
        owner = names.resolve(module, expr.value, scope)
        owner = names.follow(owner) if owner is not None else None
        if isinstance(owner, ModuleRef) and owner.module.is_package:
            return owner.module
    return None


def _listed(
    names: Names, near: ParsedModule, package: ParsedModule, prefix: str, walk: bool
) -> list[tuple[str, bool]]:
    """What `pkgutil.iter_modules([folder], prefix)` (or `walk_packages`) yields for `package`,
    read for `near` (its dependencies: `Project.modules_in`)."""
    out: list[tuple[str, bool]] = []
    for name, ispkg in names.project.modules_in(package, near):
        out.append((prefix + name, ispkg))
        if walk and ispkg:
            sub = names.project.find(f"{package.name}.{name}", near)
            if sub is not None:
                out += _listed(names, near, sub, f"{prefix}{name}.", walk)
    return out


def _own_folder(names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> bool:
    """Whether `expr` is the folder of the module's file: `os.path.dirname(__file__)`, or
    `str(Path(__file__).parent)` (`pathlib.Path`)."""
    if not isinstance(expr, ast.Call) or len(expr.args) != 1 or expr.keywords:
        return False
    called = names.canonical(module, expr.func, scope)
    inner = expr.args[0]
    if called == "os.path.dirname":
        return isinstance(inner, ast.Name) and inner.id == "__file__"
    return (
        called == "builtins.str"
        and isinstance(inner, ast.Attribute)
        and inner.attr == "parent"
        and isinstance(made := inner.value, ast.Call)
        and names.canonical(module, made.func, scope) == "pathlib.Path"
        and len(made.args) == 1
        and isinstance(made.args[0], ast.Name)
        and made.args[0].id == "__file__"
    )
