"""Static evaluation of annotations into `TypeExpr` trees (`typeexpr.py`), in the module and
scope that wrote them, as `typing.get_type_hints(include_extras=True)` would: names followed
through imports and aliases, strings parsed, postponed annotations read in the module's
globals. What the interpreter could not evaluate becomes `TError` with the reason.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

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
from .typeexpr import (
    TAliasType,
    TAnnotated,
    TClass,
    TConst,
    TError,
    TGeneric,
    TMeta,
    TRef,
    TResolve,
    TUnion,
    TUnknown,
    TVar,
    TypeExpr,
    make_union,
    sdk_of,
    substitute,
    type_vars,
)

_TYPE_VARS = frozenset({"TypeVar", "ParamSpec", "TypeVarTuple"})
_T = TypeVar("_T")
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
            return self._made_alias(value, node, depth) or TUnknown(text)
        if not isinstance(node, ast.Subscript | ast.BinOp | ast.Constant | ast.Name | ast.Attribute):
            return TUnknown(text)
        self._alias_stack.add(key)
        try:
            return self.expr(value.module, node, value.scope, depth + 1)
        finally:
            self._alias_stack.discard(key)

    def _made_alias(self, value: Value, call: ast.Call, depth: int) -> TypeExpr | None:
        """`D = injected(load_d)` where the project's `def injected(fn, kind=str): return
        Annotated[kind, Resolve(fn)]` (FastAPI projects' alias helpers, ported): the alias is
        the `Annotated` the call returns, each parameter read as the call passes it (in the
        caller's module) or as its default (in the function's). None for any other function."""
        fn = self.names.resolve(value.module, call.func, value.scope)
        fn = self.names.follow(fn) if fn is not None else None
        if not isinstance(fn, Defined) or not isinstance(fn.node, ast.FunctionDef) or fn.node.decorator_list:
            return None
        made = returned_subscript(fn.node)
        bound = bound_arguments(fn.node, call) if made is not None else None
        if made is None or bound is None:
            return None
        origin = self.expr(fn.module, made.value, fn.scope, depth + 1)
        raw = list(made.slice.elts) if isinstance(made.slice, ast.Tuple) else [made.slice]
        if not isinstance(origin, TRef) or sdk_of(origin) != "Annotated" or len(raw) < 2:
            return None

        def passed(node: ast.expr) -> tuple[ParsedModule, ast.expr, Scope | None] | None:
            if isinstance(node, ast.Name) and node.id in bound:
                expr, given = bound[node.id]
                return (value.module, expr, value.scope) if given else (fn.module, expr, fn.scope)
            return None

        first = passed(raw[0]) or (fn.module, raw[0], fn.scope)
        inner = self.expr(first[0], first[1], first[2], depth + 1)
        meta: list[TResolve | TMeta] = []
        for m in raw[1:]:
            called = m if isinstance(m, ast.Call) and len(m.args) == 1 and not m.keywords else None
            target = passed(called.args[0]) if called is not None else None
            if (
                called is not None
                and target is not None
                and sdk_name(self.names.canonical(fn.module, called.func, fn.scope)) == "Resolve"
            ):
                key = f"{value.module.display}:{call.lineno}:{call.col_offset}"
                meta.append(TResolve(target[1], target[0], value.module.span(call), target[2], key))
                continue
            if any(isinstance(n, ast.Name) and n.id in bound for n in ast.walk(m)):
                return None  # metadata built from an argument otherwise: not followed
            evaluated = self._metadata(fn.module, m, fn.scope)
            if isinstance(evaluated, TError):
                return evaluated
            meta.append(evaluated)
        if isinstance(inner, TAnnotated):
            return TAnnotated(inner.inner, inner.metadata + tuple(meta))
        return TAnnotated(inner, tuple(meta))

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

    def default_marker(
        self, module: ParsedModule, node: ast.expr | None, scope: Scope | None
    ) -> TResolve | None:
        """`Resolve(f)` (or a project function returning one) written as a parameter's default."""
        if not isinstance(node, (ast.Call, *_NAMES)):
            return None
        found = self._metadata(module, node, scope)
        return found if isinstance(found, TResolve) else None

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
            # `Resolve(f)`, or `Depends(f)` of a project `def Depends(fn): return Resolve(fn)`
            wrapped = "fn" if sdk_name(callee) == "Resolve" else self._resolve_wrapper(module, node, scope)
            if wrapped:
                target = (
                    node.args[0]
                    if node.args
                    else next((k.value for k in node.keywords if k.arg == wrapped), None)
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

    def _resolve_wrapper(self, module: ParsedModule, node: ast.Call, scope: Scope | None) -> str:
        """The parameter a project function passes straight to `Resolve` and returns (`def
        Depends(fn): return Resolve(fn)`, FastAPI's spelling kept by servers moving to the SDK):
        its calls are markers as `Resolve`'s are. "" for any other callee."""
        fn = self.names.resolve(module, node.func, scope)
        fn = self.names.follow(fn) if fn is not None else None
        if not isinstance(fn, Defined) or not isinstance(fn.node, ast.FunctionDef):
            return ""
        body = [
            s for s in fn.node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        ]
        made = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
        params = [*fn.node.args.posonlyargs, *fn.node.args.args]
        if (
            not isinstance(made, ast.Call)
            or sdk_name(self.names.canonical(fn.module, made.func, None)) != "Resolve"
            or made.keywords
            or len(made.args) != 1
            or not params
            or not isinstance(made.args[0], ast.Name)
            or made.args[0].id != params[0].arg
        ):
            return ""
        return params[0].arg


def returned_subscript(fn: ast.FunctionDef) -> ast.Subscript | None:
    """The subscript a function's body is nothing but the return of (a docstring aside)."""
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    made = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
    return made if isinstance(made, ast.Subscript) else None


def bound_arguments(fn: ast.FunctionDef, call: ast.Call) -> dict[str, tuple[ast.expr, bool]] | None:
    """Each parameter of `fn` with its value as Python binds it: what `call` passes (True) or
    its default (False); None when the call cannot be bound that simply (starred arguments,
    `*args`/`**kwargs`, a parameter left without a value)."""
    a = fn.args
    positional = [*a.posonlyargs, *a.args]
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    params = [*zip(positional, defaults, strict=True), *zip(a.kwonlyargs, a.kw_defaults, strict=True)]
    if a.vararg or a.kwarg or any(isinstance(each, ast.Starred) for each in call.args):
        return None
    if len(call.args) > len(positional):
        return None
    given: dict[str, ast.expr] = {arg.arg: each for arg, each in zip(positional, call.args, strict=False)}
    for k in call.keywords:
        if (
            k.arg is None
            or k.arg in given
            or k.arg not in {arg.arg for arg, _ in params[len(a.posonlyargs) :]}
        ):
            return None
        given[k.arg] = k.value
    bound: dict[str, tuple[ast.expr, bool]] = {}
    for arg, default in params:
        if arg.arg in given:
            bound[arg.arg] = (given[arg.arg], True)
        elif default is not None:
            bound[arg.arg] = (default, False)
        else:
            return None
    return bound


def _literal(node: ast.expr) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    return _text(node)


def _text(node: ast.AST) -> str:
    try:
        return spelling(node)
    except Exception:  # pragma: no cover - unparse of odd trees
        return "?"
