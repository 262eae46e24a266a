"""A module imported by a constant name at run time: `deps = importlib.import_module("app.deps")`,
`deps = __import__("app.deps", fromlist=["load_d"])`.

Plugin loaders import by computed names (`dynamic_imports.py` follows those a loop spells); a
constant name is the same import written as a call, so a name bound to it is the module, whose
attributes are read as those of `import app.deps as deps`. `__import__` without a `fromlist`
returns the top-level package (`app`), as Python does; any other argument (a `package=` for a
relative name, a name not written out) leaves the value to the run.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .bindings import ModuleRef, Value

if TYPE_CHECKING:
    from .symbols import Names

IMPORTERS = frozenset({"importlib.import_module", "builtins.__import__"})
"""The functions that return the module their constant first argument names."""


def imported_name(call: ast.Call, function: str | None) -> str | None:
    """The dotted name of the module `call` of `function` (its canonical name, `IMPORTERS`)
    returns: `import_module("app.deps")`, `__import__("app.deps", fromlist=[...])` (`app` with
    none); None for anything else."""
    if function not in IMPORTERS or not call.args or not isinstance(call.args[0], ast.Constant):
        return None
    name = call.args[0].value
    if not isinstance(name, str) or not name or name.startswith("."):
        return None
    if function == "importlib.import_module":
        return name if len(call.args) == 1 and not call.keywords else None
    fromlist = next((k.value for k in call.keywords if k.arg == "fromlist"), None)
    if len(call.args) > 1 or any(k.arg not in ("fromlist",) for k in call.keywords):
        return None  # `__import__(name, globals(), locals(), [...], 0)`: left to the run
    taken = isinstance(fromlist, ast.List | ast.Tuple) and bool(fromlist.elts)
    return name if taken else name.partition(".")[0]


def calls_an_importer(call: ast.Call) -> bool:
    """Whether `call` may be one of `IMPORTERS` by the name it is called with (cheap: asked of
    every value followed)."""
    func = call.func
    return (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id in ("__import__", "import_module")
    )


def imported_module(names: Names, value: Value) -> ModuleRef | None:
    """The project module a name bound to such a call is (`value`: `deps = import_module(...)`),
    recorded as an import of the binding module; None when it names none."""
    assert isinstance(value.node, ast.Call)
    name = imported_name(value.node, names.canonical(value.module, value.node.func, value.scope))
    found = names.project.find(name, value.module) if name is not None else None
    if found is None:
        return None
    names.project.followed(value.module, found)
    return ModuleRef(found)
