"""Static evaluation of annotations, as `typing.get_type_hints(include_extras=True)` sees them.

The result is a small tree (`TypeExpr`): `Annotated` is flattened the way
typing flattens it (`Annotated[Annotated[T, a], b]` is `Annotated[T, a, b]`),
`Optional`/`Union`/`|` become one deduplicated `TUnion`, names are followed
through imports and type aliases (`StockDep = Annotated[...]`, `TypeAlias`, also
from other modules), string annotations are parsed. Anything the interpreter
could not evaluate becomes `TError` with the reason — exactly what makes the
SDK see *no* hints for the whole function.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .model import Span
from .source import ParsedModule, spelling
from .symbols import (
    Defined,
    External,
    Missing,
    ModuleRef,
    Names,
    Param,
    Scope,
    Value,
    sdk_name,
)


@dataclass(frozen=True, slots=True)
class TRef:
    """An external type by dotted path (`builtins.int`, `mcp.server.mcpserver.Context`)."""

    qualname: str

    @property
    def sdk(self) -> str | None:
        return sdk_name(self.qualname)


@dataclass(frozen=True, slots=True)
class TClass:
    """A class defined in the project."""

    module: str
    qualname: str
    node: ast.ClassDef = field(compare=False, hash=False, repr=False)
    source: ParsedModule = field(compare=False, hash=False, repr=False)


@dataclass(frozen=True, slots=True)
class TConst:
    """`None` or a literal value (inside `Literal[...]`)."""

    value: object


@dataclass(frozen=True, slots=True)
class TResolve:
    """A `Resolve(target)` marker inside `Annotated[...]`."""

    target: ast.expr | None = field(compare=False, hash=False)
    module: ParsedModule = field(compare=False, hash=False, repr=False)
    span: Span | None = field(compare=False, hash=False)
    scope: Scope | None = field(default=None, compare=False, hash=False, repr=False)
    key: str = ""


@dataclass(frozen=True, slots=True)
class TMeta:
    """Any other `Annotated` metadata (e.g. `Field(alias="x")`): kept as its call, if any."""

    callee: str | None
    keywords: tuple[tuple[str, str], ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class TAnnotated:
    """`Annotated[inner, *metadata]`: the `Resolve(...)` markers and other metadata kept."""

    inner: TypeExpr
    metadata: tuple[TResolve | TMeta, ...]


@dataclass(frozen=True, slots=True)
class TUnion:
    """`A | B`, `Union[A, B]` or `Optional[A]`: the members flattened and deduplicated."""

    args: tuple[TypeExpr, ...]


@dataclass(frozen=True, slots=True)
class TGeneric:
    """A subscripted generic (`list[int]`, `Literal["a"]`): its origin and arguments."""

    origin: TypeExpr
    args: tuple[TypeExpr, ...]


@dataclass(frozen=True, slots=True)
class TAliasType:
    """A PEP 695 `type X = ...` alias: opaque to `get_origin`, as in the SDK."""

    name: str
    value: TypeExpr


@dataclass(frozen=True, slots=True)
class TVar:
    """A `TypeVar` (or `ParamSpec`/`TypeVarTuple`): what a subscripted generic alias replaces."""

    name: str


@dataclass(frozen=True, slots=True)
class TUnknown:
    """Evaluable, but nothing static analysis needs to know (TypeVars, calls, ...)."""

    text: str


@dataclass(frozen=True, slots=True)
class TError:
    """Would raise when evaluated; `reason` says why."""

    reason: str
    text: str = ""


TypeExpr = TRef | TClass | TConst | TAnnotated | TUnion | TGeneric | TAliasType | TVar | TUnknown | TError

_TYPE_VARS = frozenset({"TypeVar", "ParamSpec", "TypeVarTuple"})
_T = TypeVar("_T")


def type_vars(t: TypeExpr | None, out: list[TVar] | None = None) -> list[TVar]:
    """The free type variables of a type, in order of first appearance (typing's `__parameters__`)."""
    out = [] if out is None else out
    if isinstance(t, TVar):
        if t not in out:
            out.append(t)
    elif isinstance(t, TAnnotated):
        type_vars(t.inner, out)
    elif isinstance(t, TUnion):
        for a in t.args:
            type_vars(a, out)
    elif isinstance(t, TGeneric):
        type_vars(t.origin, out)
        for a in t.args:
            type_vars(a, out)
    return out


def substitute(t: TypeExpr, mapping: dict[TVar, TypeExpr]) -> TypeExpr:
    """`Alias[X]`: the alias's type variables replaced, re-normalised as typing does it
    (unions flattened and deduplicated, nested `Annotated` merged)."""
    if isinstance(t, TVar):
        return mapping.get(t, t)
    if isinstance(t, TAnnotated):
        inner = substitute(t.inner, mapping)
        if isinstance(inner, TAnnotated):
            return TAnnotated(inner.inner, inner.metadata + t.metadata)
        return TAnnotated(inner, t.metadata)
    if isinstance(t, TUnion):
        return make_union([substitute(a, mapping) for a in t.args])
    if isinstance(t, TGeneric):
        return TGeneric(substitute(t.origin, mapping), tuple(substitute(a, mapping) for a in t.args))
    return t


def first_error(t: TypeExpr | None) -> TError | None:
    """The first unevaluable part of an annotation, if any."""
    if t is None:
        return None
    if isinstance(t, TError):
        return t
    if isinstance(t, TAnnotated):
        return first_error(t.inner)
    if isinstance(t, TUnion):
        return next((e for a in t.args if (e := first_error(a)) is not None), None)
    if isinstance(t, TGeneric):
        return first_error(t.origin) or next((e for a in t.args if (e := first_error(a)) is not None), None)
    return None


def strip_annotated(t: TypeExpr | None) -> TypeExpr | None:
    """Remove every `Annotated` layer, as `get_type_hints(include_extras=False)` does."""
    if isinstance(t, TAnnotated):
        return strip_annotated(t.inner)
    if isinstance(t, TUnion):
        return TUnion(tuple(strip_annotated(a) or a for a in t.args))
    if isinstance(t, TGeneric):
        return TGeneric(t.origin, tuple(strip_annotated(a) or a for a in t.args))
    return t


def resolve_marker(t: TypeExpr | None) -> TResolve | None:
    """The first `Resolve` in a top-level `Annotated` (the only place the SDK honours it)."""
    if isinstance(t, TAnnotated):
        return next((m for m in t.metadata if isinstance(m, TResolve)), None)
    return None


def contains_resolve(t: TypeExpr | None) -> bool:
    """The SDK's `_contains_resolve`: a marker nested in a union/generic (stops at an Annotated)."""
    if isinstance(t, TAnnotated):
        return any(isinstance(m, TResolve) for m in t.metadata)
    if isinstance(t, TUnion):
        return any(contains_resolve(a) for a in t.args)
    if isinstance(t, TGeneric):
        return any(contains_resolve(a) for a in t.args)
    return False


def nested_resolve(t: TypeExpr | None) -> TResolve | None:
    """Any `Resolve` anywhere below the top level (for hidden/wrapped-marker diagnostics)."""
    if isinstance(t, TAnnotated):
        own = next((m for m in t.metadata if isinstance(m, TResolve)), None)
        return own or nested_resolve(t.inner)
    if isinstance(t, TUnion):
        return next((r for a in t.args if (r := nested_resolve(a)) is not None), None)
    if isinstance(t, TGeneric):
        return next((r for a in t.args if (r := nested_resolve(a)) is not None), None)
    if isinstance(t, TAliasType):
        return nested_resolve(t.value)
    return None


def display(t: TypeExpr | None) -> str:
    """A short human rendering (`Stock`, `str | None`, `Elicit[Backorder]`)."""
    if t is None:
        return ""
    if isinstance(t, TRef):
        name = t.qualname.rpartition(".")[2]
        return "None" if name == "NoneType" else name
    if isinstance(t, TClass):
        return t.qualname
    if isinstance(t, TConst):
        return repr(t.value) if t.value is not None else "None"
    if isinstance(t, TAnnotated):
        return display(t.inner)
    if isinstance(t, TUnion):
        return " | ".join(display(a) for a in t.args)
    if isinstance(t, TGeneric):
        return f"{display(t.origin)}[{', '.join(display(a) for a in t.args)}]"
    if isinstance(t, TAliasType):
        return t.name
    if isinstance(t, TUnknown):
        return t.text
    if isinstance(t, TVar):
        return t.name
    return t.text or "?"


def sdk_of(t: TypeExpr | None) -> str | None:
    """The SDK/typing name a type stands for (`Context`, `Elicit`, `InputRequiredResult`...)."""
    if isinstance(t, TRef):
        return t.sdk
    if isinstance(t, TGeneric):
        return sdk_of(t.origin)
    return None


_NAMES = (ast.Name, ast.Attribute)
_SEQUENCES = (ast.List, ast.Tuple)
_OPAQUE_SYMBOLS = (ModuleRef, Param)
"""isinstance() with tuples on the hot path: `A | B` builds a new union at every call."""


class Evaluator:
    """Evaluates annotation expressions in the module (and scope) that wrote them."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self._alias_stack: set[tuple[str, str]] = set()
        self._postponed = False
        """Whether the expression being evaluated is evaluated late (postponed or string annotation)."""

    def annotation(
        self, module: ParsedModule, node: ast.expr | None, scope: Scope | None = None
    ) -> TypeExpr | None:
        """Evaluate a parameter or return annotation as `get_type_hints` would."""
        if node is None:
            return None
        postponed = module.future_annotations
        previous, self._postponed = self._postponed, postponed
        try:
            # Postponed annotations are evaluated later in the module's globals: local names are gone.
            scope = None if postponed else scope
            if scope is None and isinstance(node, _NAMES):
                # `ctx: Context`, `user: deps.UserDep`: spelt alike in many tools of a module, and
                # nothing of where it is written is in what it means.
                key = ("annotation", id(module), _text(node))
                return self.remembered(key, self.expr, module, node, None)
            return self.expr(module, node, scope)
        finally:
            self._postponed = previous

    def expr(self, module: ParsedModule, node: ast.expr, scope: Scope | None, depth: int = 0) -> TypeExpr:
        if depth > 60:
            return TUnknown("...")
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return self._string(module, node.value, scope, depth)
            if node.value is None:
                return TConst(None)
            if node.value is Ellipsis:
                return TUnknown("...")
            return TConst(node.value)
        if isinstance(node, _NAMES):
            return self._named(module, node, scope, depth)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return make_union(
                [
                    self.expr(module, node.left, scope, depth + 1),
                    self.expr(module, node.right, scope, depth + 1),
                ]
            )
        if isinstance(node, ast.Subscript):
            return self._subscript(module, node, scope, depth)
        if isinstance(node, _SEQUENCES):
            items = [self.expr(module, e, scope, depth + 1) for e in node.elts]
            err = next((i for i in items if isinstance(i, TError)), None)
            return err or TUnknown(_text(node))
        return TUnknown(_text(node))

    def _string(self, module: ParsedModule, value: str, scope: Scope | None, depth: int) -> TypeExpr:
        try:
            parsed = ast.parse(value.strip(), mode="eval").body
        except SyntaxError:
            return TError(f"the string annotation {value!r} is not valid Python", value)
        previous, self._postponed = self._postponed, True
        try:
            return self.expr(module, parsed, None, depth + 1)
        finally:
            self._postponed = previous

    def _named(self, module: ParsedModule, node: ast.expr, scope: Scope | None, depth: int) -> TypeExpr:
        symbol = self.names.resolve(module, node, scope)
        if symbol is None:
            return TUnknown(_text(node))
        if isinstance(symbol, Missing) and isinstance(node, ast.Name) and node.id in module.type_params:
            return TVar(node.id)  # `def first[T](items: list[T])`: a PEP 695 type parameter
        symbol = self.names.follow(symbol)
        return self.from_symbol(symbol, _text(node), depth)

    def from_symbol(self, symbol: object, text: str, depth: int = 0) -> TypeExpr:
        if isinstance(symbol, Missing):
            return TError(symbol.reason, text) if symbol.certain else TUnknown(text)
        if isinstance(symbol, External):
            return TRef(symbol.qualname)
        if isinstance(symbol, Defined):
            if isinstance(symbol.node, ast.ClassDef):
                return TClass(symbol.module.name, symbol.qualname, symbol.node, symbol.module)
            return TUnknown(text)
        if isinstance(symbol, Value):
            return self._alias(symbol, text, depth)
        if isinstance(symbol, _OPAQUE_SYMBOLS):
            return TUnknown(text)
        return TUnknown(text)

    def remembered(self, key: Hashable, compute: Callable[..., _T], *args: Any) -> _T:
        """`Names.remembered` for an evaluation: its answer also depends on whether it is
        postponed, and inside an alias's expansion it may meet that alias again (not kept)."""
        if self._alias_stack:
            return compute(*args)
        return self.names.remembered((key, self._postponed), compute, *args)

    def _alias(self, value: Value, text: str, depth: int) -> TypeExpr:
        """Expand a module-level assignment used as a type (`StockDep = Annotated[...]`): once
        per alias, however many parameters name it."""
        return self.remembered(("alias", id(value.node), text, depth), self._expand, value, text, depth)

    def _expand(self, value: Value, text: str, depth: int) -> TypeExpr:
        key = (str(value.module.path), value.name)
        if key in self._alias_stack:
            return TError(f"type alias {value.name!r} refers to itself", text)
        node: ast.AST = value.node
        if type(node).__name__ == "TypeAlias":  # PEP 695
            self._alias_stack.add(key)
            try:
                inner = self.expr(value.module, node.value, None, depth + 1)  # type: ignore[attr-defined]
            finally:
                self._alias_stack.discard(key)
            return TAliasType(value.name, inner)
        if isinstance(node, ast.Call):
            callee = self.names.canonical(value.module, node.func, value.scope)
            if sdk_name(callee) == "TypeAliasType" and len(node.args) >= 2:
                inner = self.expr(value.module, node.args[1], value.scope, depth + 1)
                return TAliasType(value.name, inner)
            if sdk_name(callee) in _TYPE_VARS:
                first = node.args[0] if node.args else None
                name = first.value if isinstance(first, ast.Constant) else value.name
                return TVar(str(name))
            return TUnknown(text)
        if not isinstance(node, ast.Subscript | ast.BinOp | ast.Constant | ast.Name | ast.Attribute):
            return TUnknown(text)
        self._alias_stack.add(key)
        try:
            return self.expr(value.module, node, value.scope, depth + 1)
        finally:
            self._alias_stack.discard(key)

    def _subscript(
        self, module: ParsedModule, node: ast.Subscript, scope: Scope | None, depth: int
    ) -> TypeExpr:
        origin = self.expr(module, node.value, scope, depth + 1)
        if isinstance(origin, TError):
            return origin
        raw = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        name = sdk_of(origin) if isinstance(origin, TRef) else None
        if name == "Annotated" and raw:
            inner = self.expr(module, raw[0], scope, depth + 1)
            evaluated = tuple(self._metadata(module, m, scope) for m in raw[1:])
            broken = next((m for m in evaluated if isinstance(m, TError)), None)
            if broken is not None:
                return broken
            meta = tuple(m for m in evaluated if not isinstance(m, TError))  # all of them, now
            if isinstance(inner, TAnnotated):
                return TAnnotated(inner.inner, inner.metadata + meta)
            return TAnnotated(inner, meta)
        if name == "Literal":
            return TGeneric(origin, tuple(TConst(_literal(e)) for e in raw))
        args = [self.expr(module, a, scope, depth + 1) for a in raw]
        if name == "Optional" and len(args) == 1:
            return make_union([args[0], TConst(None)])
        if name == "Union":
            return make_union(args)
        if isinstance(origin, TUnion | TAnnotated | TGeneric):
            # A subscripted generic alias (`Res[str]` with `Res = Union[InputRequiredResult, T]`):
            # typing substitutes its type variables, so every check sees the result.
            params = type_vars(origin)
            if params:
                if len(args) != len(params):
                    return TError(
                        f"too {'many' if len(args) > len(params) else 'few'} arguments for {_text(node.value)}",
                        _text(node),
                    )
                return substitute(origin, dict(zip(params, args, strict=True)))
        return TGeneric(origin, tuple(args))

    def _metadata(
        self, module: ParsedModule, node: ast.expr, scope: Scope | None
    ) -> TResolve | TMeta | TError:
        if isinstance(node, _NAMES):  # `BY_STOCK = Resolve(f)`; `Annotated[int, BY_STOCK]`
            symbol = self.names.resolve(module, node, scope)
            symbol = self.names.follow(symbol) if symbol is not None else None
            if isinstance(symbol, Value) and isinstance(symbol.node, ast.Call):
                return self._metadata(symbol.module, symbol.node, symbol.scope)
        if isinstance(node, ast.Call):
            callee = self.names.canonical(module, node.func, scope)
            if sdk_name(callee) == "Resolve":
                target = (
                    node.args[0]
                    if node.args
                    else next((k.value for k in node.keywords if k.arg == "fn"), None)
                )
                if self._postponed and target is not None:
                    # Evaluated late, `Resolve(missing)` makes the whole annotation unevaluable.
                    symbol = self.names.resolve(module, target, scope)
                    if isinstance(symbol, Missing) and symbol.certain:
                        return TError(symbol.reason, _text(target))
                key = f"{module.display}:{node.lineno}:{node.col_offset}"
                return TResolve(target, module, module.span(node), scope, key)
            keywords = tuple((k.arg, _text(k.value)) for k in node.keywords if k.arg)
            return TMeta(callee.rpartition(".")[2] if callee else _text(node.func), keywords, _text(node))
        return TMeta(None, (), _text(node))


def make_union(args: list[TypeExpr]) -> TypeExpr:
    """Flatten and deduplicate union members, as `typing.Union` does.

    Members are compared through a set (a list scan made a `Union` of 20,000 arms take
    minutes); a member that cannot be hashed (a `Literal` of a list) falls back to `==`."""
    flat: list[TypeExpr] = []
    seen: set[TypeExpr] = set()
    for a in args:
        for member in a.args if isinstance(a, TUnion) else (a,):
            try:
                if member in seen:
                    continue
                seen.add(member)
            except TypeError:
                if member in flat:
                    continue
            flat.append(member)
    if any(isinstance(m, TError) for m in flat):
        return next(m for m in flat if isinstance(m, TError))
    return flat[0] if len(flat) == 1 else TUnion(tuple(flat))


def _literal(node: ast.expr) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    return _text(node)


def _text(node: ast.AST) -> str:
    try:
        return spelling(node)
    except Exception:  # pragma: no cover - unparse of odd trees
        return "?"
