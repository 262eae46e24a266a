"""What an annotation evaluates to, as `typing.get_type_hints(include_extras=True)` sees it:
a small tree (`TypeExpr`), and the questions the builder and the rules ask of it.

`evaluator.py` makes the trees from the source. `Annotated` is flattened the way
typing flattens it (`Annotated[Annotated[T, a], b]` is `Annotated[T, a, b]`),
`Optional`/`Union`/`|` become one deduplicated `TUnion`, names are followed
through imports and type aliases (`StockDep = Annotated[...]`, `TypeAlias`, also
from other modules), string annotations are parsed. Anything the interpreter
could not evaluate becomes `TError` with the reason — exactly what makes the
SDK see *no* hints for the whole function.
"""

from __future__ import annotations

import ast
from dataclasses import field

from .model import Span
from .records import record
from .source import ParsedModule
from .symbols import Scope, sdk_name


@record
class TRef:
    """An external type by dotted path (`builtins.int`, `mcp.server.mcpserver.Context`)."""

    qualname: str

    @property
    def sdk(self) -> str | None:
        return sdk_name(self.qualname)


@record
class TClass:
    """A class defined in the project."""

    module: str
    qualname: str
    node: ast.ClassDef = field(compare=False, hash=False, repr=False)
    source: ParsedModule = field(compare=False, hash=False, repr=False)


@record
class TConst:
    """`None` or a literal value (inside `Literal[...]`)."""

    value: object


@record
class TResolve:
    """A `Resolve(target)` marker inside `Annotated[...]`."""

    target: ast.expr | None = field(compare=False, hash=False)
    module: ParsedModule = field(compare=False, hash=False, repr=False)
    span: Span | None = field(compare=False, hash=False)
    scope: Scope | None = field(default=None, compare=False, hash=False, repr=False)
    key: str = ""


@record
class TMeta:
    """Any other `Annotated` metadata (e.g. `Field(alias="x")`): kept as its call, if any."""

    callee: str | None
    keywords: tuple[tuple[str, str], ...] = ()
    text: str = ""


@record
class TAnnotated:
    """`Annotated[inner, *metadata]`: the `Resolve(...)` markers and other metadata kept."""

    inner: TypeExpr
    metadata: tuple[TResolve | TMeta, ...]


@record
class TUnion:
    """`A | B`, `Union[A, B]` or `Optional[A]`: the members flattened and deduplicated."""

    args: tuple[TypeExpr, ...]


@record
class TGeneric:
    """A subscripted generic (`list[int]`, `Literal["a"]`): its origin and arguments."""

    origin: TypeExpr
    args: tuple[TypeExpr, ...]


@record
class TAliasType:
    """A PEP 695 `type X = ...` alias: opaque to `get_origin`, as in the SDK."""

    name: str
    value: TypeExpr


@record
class TVar:
    """A `TypeVar` (or `ParamSpec`/`TypeVarTuple`): what a subscripted generic alias replaces."""

    name: str


@record
class TUnknown:
    """Evaluable, but nothing static analysis needs to know (TypeVars, calls, ...)."""

    text: str


@record
class TError:
    """Would raise when evaluated; `reason` says why."""

    reason: str
    text: str = ""


TypeExpr = TRef | TClass | TConst | TAnnotated | TUnion | TGeneric | TAliasType | TVar | TUnknown | TError


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
