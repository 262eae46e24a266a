"""What a module's PEP 562 `__getattr__` hands out for a name the module does not bind.

Large packages re-export lazily: `app/deps/__init__.py` binds nothing, and its
`def __getattr__(name)` imports the submodule holding `name` when it is first asked for. Python
calls it for `app.deps.load_d` and for `from app.deps import load_d` (before trying a submodule
`app.deps.load_d`), so the resolver the SDK reads is whatever the function returns: a name the
module does not bind is not missing when it has one.

The body is read as Python would run it for that one name, without running it, in the shapes
published packages write: `if name == "load_d":` / `if name in ("a", "b"):` / `if name in
_LAZY:` tests, imports in the body (`from .users import load_d`), `importlib.import_module` of
a string built from literals, a module-level dict of literals (`_LAZY[name]`, `.get(name)`),
`getattr(module, name)`, `globals()[name] = value` caches, `raise AttributeError(...)`. Every
other statement or value makes the answer opaque (computed at run time, not
followed), never a guess: following a shape only partly could call a valid server invalid.
The imports such a body makes are in the import index (`import_scan`), so `lint users.py`
alone finds the tool module reaching it through the package.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, TypeAlias

from .bindings import Defined, External, Missing, ModuleRef, Param, Symbol, Value, absolute_module
from .source import ParsedModule

if TYPE_CHECKING:
    from .symbols import Names

_MAX_DEPTH = 40

Read: TypeAlias = "str | tuple[Read, ...] | dict[str, Read] | Symbol | None"
"""A value of the body: a string, None, a literal collection, or a name's symbol."""


class _Opaque(Exception):
    """The body does something this reading does not follow."""


class _Raised(Exception):
    """The body raises for this name: Python goes on to a submodule, else the name is missing."""


class _FellThrough(Exception):
    """A block ended without returning: the statements after it run."""


def handed_out(names: Names, module: ParsedModule, attr: str, depth: int) -> Symbol | None:
    """`module.attr` through the module's `__getattr__`, for a name it does not bind: None when it
    defines none or raises for `attr`; what it returns when its body is followed; an uncertain
    `Missing` (opaque) when it is not."""
    binding = names.table(module).get("__getattr__")
    if binding is None or binding.type_checking:
        return None
    node = binding.node
    opaque = Missing(
        f"module {module.name!r} hands {attr!r} out from a `__getattr__` static analysis cannot follow",
        certain=False,
    )
    if binding.kind != "def" or not isinstance(node, ast.FunctionDef) or depth > _MAX_DEPTH:
        return opaque
    positional = [*node.args.posonlyargs, *node.args.args]
    if len(positional) != 1:
        return opaque
    reading = _Body(names, module, {positional[0].arg: attr}, depth)
    try:
        returned = reading.run(node.body)
    except _Raised:
        return None
    except (_Opaque, _FellThrough):
        return opaque
    return returned if isinstance(returned, _SYMBOLS) else opaque


_SYMBOLS = (External, ModuleRef, Defined, Value, Param, Missing)
"""`Symbol`, for isinstance() (a union object would be built at every call)."""


class _Body:
    """One run of a `__getattr__` body, for one name (`locals` holds its parameter)."""

    def __init__(self, names: Names, module: ParsedModule, local: dict[str, Read], depth: int) -> None:
        self.names, self.module, self.local, self.depth = names, module, local, depth

    def run(self, body: list[ast.stmt]) -> Read:
        """What the block returns; `_FellThrough` when it ends without returning (the function
        then returns None, rarely meant: opaque)."""
        for stmt in body:
            if isinstance(stmt, ast.Return):
                return self.value(stmt.value) if stmt.value is not None else None
            if isinstance(stmt, ast.Raise):
                raise _Raised
            if isinstance(stmt, ast.If):
                taken = stmt.body if self.test(stmt.test) else stmt.orelse
                try:
                    return self.run(taken)
                except _FellThrough:
                    continue
            self.step(stmt)
        raise _FellThrough

    def step(self, stmt: ast.stmt) -> None:
        """A statement that returns nothing: imports and assignments bind locals; calls
        (`warnings.warn(...)`), docstrings and `globals()[name] = value` caches change nothing read."""
        if isinstance(stmt, ast.ImportFrom):
            source = absolute_module(self.module, stmt.level, stmt.module)
            for alias in stmt.names:
                if alias.name == "*":
                    raise _Opaque
                found = self.names.import_target(self.module, source, alias.name, self.depth + 1)
                self.local[alias.asname or alias.name] = found
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                bound = alias.name if alias.asname else alias.name.partition(".")[0]
                self.local[alias.asname or bound] = self.names.import_target(self.module, bound, None)
        elif isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Subscript) for t in stmt.targets):
            pass
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            self.assign(stmt.targets[0], self.value(stmt.value))
        elif not isinstance(stmt, ast.Expr | ast.Pass | ast.Global):
            raise _Opaque

    def assign(self, target: ast.expr, value: Read) -> None:
        if isinstance(target, ast.Name):
            self.local[target.id] = value
        elif isinstance(target, ast.Tuple) and isinstance(value, tuple) and len(value) == len(target.elts):
            for each, part in zip(target.elts, value, strict=True):
                self.assign(each, part)
        else:
            raise _Opaque

    def test(self, node: ast.expr) -> bool:
        """An `if`'s test on the name: comparisons with strings, membership, `not`, `and`, `or`."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.test(node.operand)
        if isinstance(node, ast.BoolOp):
            tests = (self.test(v) for v in node.values)
            return all(tests) if isinstance(node.op, ast.And) else any(tests)
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            raise _Opaque
        left, right, op = self.value(node.left), self.value(node.comparators[0]), node.ops[0]
        if not all(_plain(v) for v in (left, right)):
            raise _Opaque
        if isinstance(op, ast.Eq | ast.NotEq):
            return (left == right) == isinstance(op, ast.Eq)
        if isinstance(op, ast.Is | ast.IsNot) and (left is None or right is None):
            return (left is right) == isinstance(op, ast.Is)
        if isinstance(op, ast.In | ast.NotIn) and isinstance(right, tuple | dict):
            return (left in right) == isinstance(op, ast.In)
        raise _Opaque

    def value(self, node: ast.expr) -> Read:
        if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, str)):
            return node.value
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return tuple(self.value(e) for e in node.elts)
        if isinstance(node, ast.Dict) and all(k is not None for k in node.keys):
            keys = [self.value(k) for k in node.keys if k is not None]
            if all(isinstance(k, str) for k in keys):
                return {str(k): self.value(v) for k, v in zip(keys, node.values, strict=True)}
        if isinstance(node, ast.Subscript):
            return self.item(self.value(node.value), self.value(node.slice))
        if isinstance(node, ast.JoinedStr):
            return "".join(self.text(part) for part in node.values)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.value(node.left), self.value(node.right)
            if isinstance(left, str) and isinstance(right, str):
                return left + right
        if isinstance(node, ast.Attribute):
            return self.member(self.value(node.value), node.attr)
        if isinstance(node, ast.Call):
            return self.call(node)
        raise _Opaque

    def name(self, name: str) -> Read:
        """A local, the module's `__name__` / `__package__`, or a module-level name (a literal
        it is bound to is read as one)."""
        if name in self.local:
            return self.local[name]
        if name == "__name__":
            return self.module.name
        if name == "__package__":
            return self.module.package
        symbol = self.names.follow(self.names.lookup(self.module, name, None, self.depth + 1))
        if isinstance(symbol, Value) and symbol.scope is None and isinstance(symbol.node, _LITERALS):
            if not _only_read(self.names, symbol.module, symbol.name, symbol.node):
                raise _Opaque  # filled or changed elsewhere (`_LAZY[n] = m` in a loop)
            return _Body(self.names, symbol.module, {}, self.depth + 1).value(symbol.node)
        return symbol

    def text(self, part: ast.expr) -> str:
        """A piece of an f-string: literal text, or `{value}` of a string with no format."""
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            return part.value
        if isinstance(part, ast.FormattedValue) and part.conversion == -1 and part.format_spec is None:
            value = self.value(part.value)
            if isinstance(value, str):
                return value
        raise _Opaque

    def item(self, container: Read, key: Read) -> Read:
        if isinstance(container, dict) and isinstance(key, str) and key in container:
            return container[key]
        raise _Opaque  # a KeyError, or a container this reading does not hold

    def member(self, base: Read, attr: str) -> Symbol:
        if not isinstance(base, _SYMBOLS) or isinstance(base, Missing):
            raise _Opaque
        found = self.names.member(self.names.follow(base), attr, self.depth + 1)
        if isinstance(found, Missing) and not found.certain:
            raise _Opaque
        return found

    def call(self, node: ast.Call) -> Read:
        """`getattr(module, name)`, `importlib.import_module(name, package)`, `mapping.get(name)`."""
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise _Opaque
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "get" and len(node.args) == 1:
            mapping, key = self.value(func.value), self.value(node.args[0])
            if isinstance(mapping, dict) and isinstance(key, str):
                return mapping.get(key)
        callee = self.value(func)
        args = [self.value(a) for a in node.args]
        qualname = callee.qualname if isinstance(callee, External) else None
        if qualname == "builtins.getattr" and len(args) == 2 and isinstance(args[1], str):
            return self.member(args[0], args[1])
        if qualname == "importlib.import_module" and 1 <= len(args) <= 2 and isinstance(args[0], str):
            package = args[1] if len(args) == 2 else None
            if package is not None and not isinstance(package, str):
                raise _Opaque
            return self.names.import_target(self.module, _resolved(args[0], package), None)
        raise _Opaque


_LITERALS = (ast.Constant, ast.Tuple, ast.List, ast.Set, ast.Dict)


def _plain(value: Read) -> bool:
    """Whether a value compares as Python would compare it here (no symbol: identity unknown)."""
    if isinstance(value, tuple):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, str | dict)


_READ_ONLY = frozenset({"get", "keys", "values", "items", "copy", "count", "index"})


def _only_read(names: Names, module: ParsedModule, name: str, value: ast.expr) -> bool:
    """Whether the module-level literal `name = value` is the whole of what the module puts in
    it: bound once, and every other use of the name only reads it (`name in X`, `X[name]`,
    `X.get(name)`, `for n in X`, `[*X]`). A dict filled by a loop, by a function or by
    `.update(...)` holds what no literal says."""
    stored, changed = names.remembered(("literal uses", module.path), _uses, module)
    bound = stored.get(name, ())
    return name not in changed and len(bound) == 1 and bound[0] is value


def _uses(module: ParsedModule) -> tuple[dict[str, list[ast.AST | None]], set[str]]:
    """`_only_read` of every name of `module`, read in one walk: the values assignments bind
    each name to, and the names some other use may change."""
    assert module.tree is not None
    parents = {id(child): node for node in ast.walk(module.tree) for child in ast.iter_child_nodes(node)}
    stored: dict[str, list[ast.AST | None]] = {}
    changed: set[str] = set()
    for node in ast.walk(module.tree):
        if not isinstance(node, ast.Name):
            continue
        parent = parents.get(id(node))
        if isinstance(node.ctx, ast.Store) and isinstance(parent, ast.Assign | ast.AnnAssign):
            stored.setdefault(node.id, []).append(parent.value)
        elif not (isinstance(node.ctx, ast.Load) and _reads(node, parent)):
            changed.add(node.id)
    return stored, changed


_COPIES = frozenset({"list", "tuple", "sorted", "set", "frozenset", "len", "iter"})
"""Builtins reading a collection they are handed alone (`__all__ = list(_LAZY)`, a `__dir__`
returning `sorted(_LAZY)`): they copy it, never change it."""


def _reads(node: ast.Name, parent: ast.AST | None) -> bool:
    """Whether a use of a name only reads what it is bound to."""
    if isinstance(parent, ast.Compare | ast.Starred) or (isinstance(parent, ast.For) and parent.iter is node):
        return True
    if isinstance(parent, ast.Call) and parent.args == [node] and not parent.keywords:
        return isinstance(parent.func, ast.Name) and parent.func.id in _COPIES
    if isinstance(parent, ast.Subscript):
        return isinstance(parent.ctx, ast.Load)
    return isinstance(parent, ast.Attribute) and parent.attr in _READ_ONLY


def _resolved(name: str, package: str | None) -> str:
    """`importlib.util.resolve_name`: `.users` against `app.deps` is `app.deps.users`."""
    level = len(name) - len(name.lstrip("."))
    if not level:
        return name
    if not package:
        raise _Opaque  # Python raises: a relative name needs a package
    parts = package.split(".")
    if level > len(parts):
        raise _Opaque
    base = ".".join(parts[: len(parts) - level + 1])
    rest = name[level:]
    return f"{base}.{rest}" if rest else base
