"""What `from m import *` binds, read the way Python binds it.

Python copies `m`'s `__all__` when `m` defines one (each listed name read as `getattr(m, name)`,
so a package's PEP 562 `__getattr__` and its submodules count), else every name of `m`'s
namespace that does not start with `_`. That namespace already holds what `m`'s own
`from x import *` bound when it ran: a package re-exporting its modules by star imports
(`from .users import *` in `app/deps/__init__.py`) hands their names on to a tool module's
`from app.deps import *`, however many levels deep. Only `m`'s own bindings would miss them.

`__all__` is read when it is written out (a list or tuple of strings, extended by `+=`,
`.append` or `.extend` of strings); any other statement naming it leaves it unknown, and then
every name the namespace holds counts. Guessing more names costs nothing: the name is then
looked up in `m`, where it is missing or found for what it is. Guessing fewer would report a
resolver as undefined where the server finds it.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Literal

from .bindings import Binding, ModuleRef, Symbol
from .lazy_attributes import handed_out
from .source import ParsedModule

if TYPE_CHECKING:
    from .symbols import Names

Listed = frozenset[str] | Literal["absent", "unknown"]
"""A module's `__all__`: the names written out, or that it binds none, or that it cannot be read."""


def exports(
    names: Names, module: ParsedModule, name: str, seen: set[object] | None = None, depth: int = 0
) -> bool:
    """Whether `from module import *` binds `name` (a name from a star import of a module
    outside the project may be anything: it counts).

    An `__all__` this reading cannot read (`__all__ = list(_LAZY)`) may list a name the
    module's PEP 562 `__getattr__` hands out, which Python asks for it: one that does not
    raise for the name counts (`lazy_attributes`). Without `__all__`, Python copies the
    namespace and asks no `__getattr__`."""
    listed = names.remembered(("__all__", module.path), dunder_all, module)
    if isinstance(listed, frozenset):
        return name in listed
    if listed == "absent" and name.startswith("_"):
        return False
    if holds(names, module, name, set() if seen is None else seen):
        return True
    return listed == "unknown" and handed_out(names, module, name, depth + 1) is not None


def holds(names: Names, module: ParsedModule, name: str, seen: set[object]) -> bool:
    """Whether `module`'s namespace holds `name` once it is imported: a binding of its own, or
    one its star imports bring (a cycle of star imports brings nothing more)."""
    binding = names.table(module).get(name)
    if binding is not None and not binding.type_checking:  # unbound at run time otherwise
        return True
    if module.path in seen or module.tree is None:
        return False
    seen.add(module.path)
    for star, _ in names.star_targets(module):
        target = names.project.find(star, module)
        if target is None or exports(names, target, name, seen):
            return True
    return False


def in_force(
    names: Names, module: ParsedModule, name: str, own: Binding | None, cutoff: int | None, depth: int
) -> tuple[Symbol, ast.ImportFrom] | None:
    """What a star import binds `name` to in `module` where it is read, and that statement;
    None when the module's own binding `own` is in force (or nothing binds it).

    Python binds names in statement order and the later binding wins: `from app.a import *`
    then `from app.b import *` binds b's `load_d`, and `def load_d` then `from app.b import *`
    binds b's too. `own` is the own binding in force (`Names.lookup`: the last before a
    registration's `cutoff` line in this module, else the first); a star import counts when
    it comes after it and before the cutoff. When nothing binds the name before the cutoff,
    the first binding after it stands (reported as bound too late, like an own one).

    A star import of a module outside the project is not read (it may bind anything): it
    stands only where no project binding does (`Names.lookup`), so `from os.path import *`
    does not hide a project module's `load_d`. A star import whose reading comes back to this
    name (`from app.api import *` in `app/api/__init__.py`, or through other modules) copies
    what the module holds already: the binding before it stands."""
    key = (module.path, name)
    if key in names.starring:  # read again inside its own reading: what was bound before
        names.starring[key] = True
        names.unremembered()  # a cycle's partial answer
        return None
    line = own.line if own is not None and not own.type_checking else None
    early = line is not None and (cutoff is None or line < cutoff)
    stars = names.star_targets(module)
    # The last star import binding it before the cutoff (after the own binding in force)...
    order = [s for s in reversed(stars) if (cutoff is None or s[1].lineno < cutoff)]
    if early and line is not None:
        order = [s for s in order if s[1].lineno > line]
    elif cutoff is not None:  # ... else the first binding after it
        order += [s for s in stars if s[1].lineno >= cutoff and (line is None or s[1].lineno < line)]
    names.starring[key] = False
    try:
        for star, statement in order:
            target = names.project.find(star, module)
            if target is None or not exports(names, target, name, None, depth):
                continue
            found = names.member(ModuleRef(target), name, depth + 1)
            if not names.starring[key]:
                return found, statement
            names.starring[key] = False  # it came back here: the binding before it stands
    finally:
        del names.starring[key]
    return None


def dunder_all(module: ParsedModule) -> Listed:
    """The names a module's top-level statements write into `__all__` (`exports`)."""
    if module.tree is None:
        return "absent"
    listed: set[str] | None = None
    for stmt in module.tree.body:
        value = _assigned(stmt)
        added = _added(stmt) if value is None and listed is not None else None
        if value is not None:
            listed = _strings(value)
            if listed is None:
                return "unknown"
        elif added is not None and listed is not None:
            listed |= added
        elif any(isinstance(n, ast.Name) and n.id == "__all__" for n in ast.walk(stmt)):
            return "unknown"
    return "absent" if listed is None else frozenset(listed)


def _assigned(stmt: ast.stmt) -> ast.expr | None:
    """`__all__ = value` or `__all__: list[str] = value`: the value."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _is_all(stmt.targets[0]):
        return stmt.value
    if isinstance(stmt, ast.AnnAssign) and _is_all(stmt.target) and stmt.value is not None:
        return stmt.value
    return None


def _added(stmt: ast.stmt) -> set[str] | None:
    """The strings `__all__ += [...]`, `__all__.extend([...])` or `__all__.append("x")` add."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add) and _is_all(stmt.target):
        return _strings(stmt.value)
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and _is_all(call.func.value)
        and len(call.args) == 1
        and not call.keywords
    ):
        return None
    if call.func.attr == "extend":
        return _strings(call.args[0])
    added = call.args[0]
    if call.func.attr == "append" and isinstance(added, ast.Constant) and isinstance(added.value, str):
        return {added.value}
    return None


def _strings(node: ast.expr) -> set[str] | None:
    """The strings of a list, tuple or set written out; None for anything else."""
    if not isinstance(node, ast.List | ast.Tuple | ast.Set):
        return None
    out = set()
    for element in node.elts:
        if not (isinstance(element, ast.Constant) and isinstance(element.value, str)):
            return None
        out.add(element.value)
    return out


def _is_all(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "__all__"
