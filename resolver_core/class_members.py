"""What a project class exposes: its members, looked up through its bases, and the signature
`inspect.signature` gives the class itself (`__init__` without `self`, else the fields of a
dataclass, a pydantic model or a NamedTuple).

`class_attribute` is `Names.member` of a class, imported there when a class is met: this
module reads `signatures`, which reads `symbols`, so `symbols` cannot import it first."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .signatures import Classes, function_params
from .source import ParsedModule
from .symbols import Defined, Missing, Names, Param, Scope, Symbol, Value, collect_bindings
from .typeexpr import TClass, TRef

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)  # a tuple for isinstance: no union built per call


def class_attribute(names: Names, cls: Defined, node: ast.ClassDef, attr: str, depth: int) -> Symbol:
    """`cls.attr` for a project class (`node`, its statement): a method or class of its body, a
    value assigned there (`class App: server = MCPServer()`), else its one project base's."""
    for stmt in node.body:
        if isinstance(stmt, _FUNCTIONS) and stmt.name == attr:
            return Defined(cls.module, stmt, f"{cls.qualname}.{attr}", owner=cls)
        if isinstance(stmt, ast.ClassDef) and stmt.name == attr:
            return Defined(cls.module, stmt, f"{cls.qualname}.{attr}")
    attributes = collect_bindings(cls.module, node.body)
    if attr in attributes and attributes[attr].kind == "value":  # `class App: server = MCPServer()`
        value = attributes[attr].node
        assert isinstance(value, ast.expr)
        body = Scope(cls.module, node, cls.qualname, cls.scope)  # where it was evaluated
        if (  # `user = staticmethod(load_user)`: read through the class, the function itself
            isinstance(value, ast.Call)
            and len(value.args) == 1
            and not value.keywords
            and not isinstance(value.args[0], ast.Starred)
            and names.canonical(cls.module, value.func, body) == "builtins.staticmethod"
        ):
            value = value.args[0]
        return Value(cls.module, value, f"{cls.qualname}.{attr}", None, body)
    # Bases, metaclasses and assignments after the class body can add attributes.
    missing = Missing(f"class {cls.qualname!r} has no attribute {attr!r} in its body", certain=False)
    return _inherited(names, cls, node, attr, depth) or missing


def _inherited(names: Names, cls: Defined, node: ast.ClassDef, attr: str, depth: int) -> Symbol | None:
    """`attr` from a class's one project base: no metaclass, no C3 order, the MRO is that chain."""
    if len(node.bases) != 1 or node.keywords or depth > 20:
        return None
    first = node.bases[0]  # `CRUDBase[User]`: its `__mro_entries__` give `CRUDBase`
    first = first.value if isinstance(first, ast.Subscript) else first
    sym = (
        names.follow(written, depth + 1) if (written := names.resolve(cls.module, first, cls.scope)) else None
    )
    if not (isinstance(sym, Defined) and isinstance(sym.node, ast.ClassDef)):
        return None
    return None if isinstance(found := names.member(sym, attr, depth + 1), Missing) else found


def inherited_method(names: Names, cls: Defined, name: str, depth: int = 0) -> Defined | None:
    """A class's own member `name`, else the first found in its bases (depth-first, as far as
    the project's source goes)."""
    found = names.member(cls, name)
    if isinstance(found, Defined):
        return found
    if depth > 10 or not isinstance(cls.node, ast.ClassDef):
        return None
    for sym in project_bases(names, cls.module, cls.node):
        m = inherited_method(names, sym, name, depth + 1)
        if m is not None:
            return m
    return None


def derives(names: Names, cls: Defined, base: ast.ClassDef, depth: int = 0) -> bool:
    """Whether the project class `cls` is `base` or inherits from it (through project source)."""
    if cls.node is base:
        return True
    if depth > 10 or not isinstance(cls.node, ast.ClassDef):
        return False
    return any(derives(names, sym, base, depth + 1) for sym in project_bases(names, cls.module, cls.node))


def project_bases(names: Names, module: ParsedModule, node: ast.ClassDef) -> Iterator[Defined]:
    """The bases of a class that are classes of the project's source."""
    for written in node.bases:
        sym = names.resolve(module, written)
        sym = names.follow(sym) if sym is not None else None
        if isinstance(sym, Defined) and isinstance(sym.node, ast.ClassDef):
            yield sym


def self_class(names: Names, module: ParsedModule, symbol: object, scope: Scope | None) -> Defined | None:
    """`self` inside a method of a module-level project class: that class (`self.mcp.add_tool(
    self.search)` in `_register_tools(self)` registers the method bound to the instance)."""
    if not isinstance(symbol, Param) or scope is None or scope.function is not symbol.function:
        return None
    positional = [*symbol.function.args.posonlyargs, *symbol.function.args.args]
    if not positional or positional[0] is not symbol.node or "." not in scope.qualname:
        return None
    cls = names.lookup(module, scope.qualname.split(".")[0])
    if isinstance(cls, Defined) and isinstance(cls.node, ast.ClassDef) and symbol.function in cls.node.body:
        return cls
    return None


def class_signature(names: Names, classes: Classes, cls: Defined) -> list[tuple[str, ast.AST]]:
    """Parameters `inspect.signature(cls)` shows: `__init__` minus self, else dataclass/model fields."""
    init = inherited_method(names, cls, "__init__")
    if init is not None and isinstance(init.node, ast.FunctionDef | ast.AsyncFunctionDef):
        return [(arg.arg, arg) for arg, *_ in function_params(init.node)[1:]]
    assert isinstance(cls.node, ast.ClassDef)
    tclass = TClass(cls.module.name, cls.qualname, cls.node, cls.module)
    is_model = classes.is_sub(tclass, frozenset({"BaseModel"}))
    is_tuple = any(  # `class Point(NamedTuple)`: its fields are its `__new__` parameters
        isinstance(b, TRef) and b.qualname.rpartition(".")[2] == "NamedTuple" for b in classes.bases(tclass)
    )
    if is_model or is_tuple or "dataclass" in decorator_names(cls.node):
        return [
            ((_field_alias(s.value) if is_model else None) or name, s) for name, s in init_fields(cls.node)
        ]
    return []


def init_fields(cls: ast.ClassDef) -> list[tuple[str, ast.AnnAssign]]:
    """The fields a generated `__init__` takes, in order: annotated names, not `ClassVar`, not
    `field(init=False)` (a dataclass's, a model's, a NamedTuple's)."""
    return [
        (s.target.id, s)
        for s in cls.body
        if isinstance(s, ast.AnnAssign)
        and isinstance(s.target, ast.Name)
        and "ClassVar" not in ast.unparse(s.annotation)
        and not _init_false(s.value)
    ]


def decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> set[str]:
    out = set()
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        out.add(target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", ""))
    return out


def _keyword(call: ast.expr | None, names: tuple[str, ...], keyword: str) -> ast.expr | None:
    """The `keyword=` argument of a call to one of `names` (`Field(alias=...)`, `field(init=...)`)."""
    if not isinstance(call, ast.Call):
        return None
    callee = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    if callee not in names:
        return None
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _field_alias(value: ast.expr | None) -> str | None:
    """A pydantic field's alias: `inspect.signature(Model)` names the parameter after it."""
    alias = _keyword(value, ("Field",), "alias")
    return alias.value if isinstance(alias, ast.Constant) and isinstance(alias.value, str) else None


def _init_false(value: ast.expr | None) -> bool:
    """A dataclass `field(init=False)`: not an `__init__` parameter."""
    init = _keyword(value, ("field",), "init")
    return isinstance(init, ast.Constant) and init.value is False
