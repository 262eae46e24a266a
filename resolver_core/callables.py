"""What the `x` in `Resolve(x)` is, and the `Resolver` node it becomes.

Mirrors what the SDK does with the object at registration: which signature
`inspect.signature` gives (bound methods and classmethods lose their first
parameter, `functools.partial` its positionally-bound ones, a class exposes its
`__init__`/fields), and whether `typing.get_type_hints` can read hints at all
(not for classes, partials and lambdas — so their parameters can only be tool
arguments by name). Targets static analysis cannot see through are marked
`opaque` instead of guessed.
"""

from __future__ import annotations

import ast
import builtins
import inspect
from dataclasses import dataclass, replace
from functools import partial

from .decorators import Decorators, Obj, replaced, written_chain
from .model import Parameter, Question, Resolver, ResolverKind, Span
from .sampling import fill_sample
from .source import ParsedModule, spelling
from .symbols import (
    Defined,
    External,
    Missing,
    ModuleRef,
    Names,
    Scope,
    Symbol,
    Value,
    sdk_name,
)
from .typeexpr import (
    Evaluator,
    TAnnotated,
    TClass,
    TGeneric,
    TRef,
    TResolve,
    TUnion,
    TypeExpr,
    display,
    first_error,
    resolve_marker,
    sdk_of,
)

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
_NO_SIGNATURE = frozenset({"operator.itemgetter", "operator.attrgetter", "operator.methodcaller"})
"""Standard callables whose instances `inspect.signature` refuses (the SDK's T10)."""
QUESTION_NAMES = {"Elicit": "elicit", "Sample": "sample", "ListRoots": "list_roots"}


@dataclass(slots=True)
class Target:
    """A resolved `Resolve(...)` target, before its parameters are classified."""

    kind: ResolverKind
    key: tuple[object, ...]
    module: ParsedModule
    qualname: str
    modname: str
    node: FunctionNode | ast.ClassDef | None = None
    skip: int = 0
    no_hints: bool = False
    scope: Scope | None = None
    problem: str | None = None
    problem_code: str = "MCPD007"
    fields: list[tuple[str, ast.AST]] | None = None
    signature: list[str] | None = None
    is_async: bool | None = None
    """The object's own async-ness when decorators decide it (else: is `node` an async def)."""
    wrapped_async: str | None = None
    """The `async def` a sync decorator wrapper calls (its coroutine is injected: MCPD108)."""
    decorators: tuple[str, ...] = ()
    """The decorator chain written on the def, for display."""


def _decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> set[str]:
    out = set()
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        out.add(target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", ""))
    return out


def _is_binding_marker(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("staticmethod", "classmethod")


def _chain_of(symbol: Defined) -> tuple[str, ...]:
    return tuple(written_chain(symbol.module.text, symbol.node, for_tool=False))


def _not_callable(module: ParsedModule, key: object, text: str, cls: str) -> Target:
    """An instance of a project class without `__call__` (the SDK's T10)."""
    problem = f"an instance of {cls} is not callable (no __call__)"
    return Target("opaque", ("inst", key), module, text, module.name, problem=problem)


def _async_node(node: ast.AST | None) -> bool:
    return isinstance(node, ast.AsyncFunctionDef)


def function_params(node: FunctionNode) -> list[tuple[ast.arg, str | None, bool, ast.expr | None]]:
    """(arg, variadic marker, positional_only, default) for every parameter, in signature order."""
    a = node.args
    positional = [*a.posonlyargs, *a.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    out = [(arg, None, i < len(a.posonlyargs), defaults[i]) for i, arg in enumerate(positional)]
    if a.vararg:
        out.append((a.vararg, "*", False, None))
    out.extend((arg, None, False, d) for arg, d in zip(a.kwonlyargs, a.kw_defaults, strict=False))
    if a.kwarg:
        out.append((a.kwarg, "**", False, None))
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


def class_scope(owner: Defined | None) -> Scope | None:
    """The class body a method's eager annotations are evaluated in (nested classes, aliases)."""
    if owner is None or not isinstance(owner.node, ast.ClassDef):
        return None
    return Scope(owner.module, owner.node, owner.qualname)


def written_parameter(
    module: ParsedModule,
    arg: ast.arg,
    variadic: str | None,
    positional_only: bool,
    default: ast.expr | None,
    type_: TypeExpr | None,
) -> Parameter:
    """A parameter as written (annotation and default as source text), not yet classified."""
    return Parameter(
        arg.arg,
        "tool_argument",
        module.span(arg),
        annotation=module.segment(arg.annotation) if arg.annotation is not None else None,
        type=type_,
        default=module.segment(default) if default is not None else None,
        positional_only=positional_only,
        variadic=variadic,  # type: ignore[arg-type]
    )


def own_nodes(node: FunctionNode) -> list[ast.AST]:
    """Every node of a function body that is its own: nested functions, lambdas and classes
    are in it, their insides are not. Walked once per function and kept on its node (the
    builder asks for its yields, its returns and their calls; rules read the returns again)."""
    nodes: list[ast.AST] | None = getattr(node, "_mcpdeps_own_nodes", None)
    if nodes is None:
        nodes = []
        stack: list[ast.AST] = list(node.body) if not isinstance(node, ast.Lambda) else [node.body]
        while stack:
            cur = stack.pop()
            nodes.append(cur)
            if not isinstance(cur, _NESTED):
                stack.extend(ast.iter_child_nodes(cur))
        node._mcpdeps_own_nodes = nodes  # type: ignore[union-attr]
    return nodes


_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_YIELDS = (ast.Yield, ast.YieldFrom)


def contains_yield(node: FunctionNode) -> bool:
    """Whether a function body yields (nested functions and lambdas excluded)."""
    return any(isinstance(cur, _YIELDS) for cur in own_nodes(node))


def returns_of(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Return]:
    """`return` statements of a function body, not of nested functions."""
    out = [cur for cur in own_nodes(node) if isinstance(cur, ast.Return)]
    return sorted(out, key=lambda r: (r.lineno, r.col_offset))


class Classes:
    """Subclass checks on project classes (Context subclasses, BaseModel, InputRequiredResult)."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator

    def bases(self, cls: TClass) -> list[TypeExpr]:
        return [self.evaluator.expr(cls.source, b, None) for b in cls.node.bases]

    def is_sub(self, t: TypeExpr | None, names: frozenset[str], depth: int = 0) -> bool:
        """Is `t` one of the SDK/pydantic classes `names`, or a project subclass of one?"""
        if depth > 30 or t is None:
            return False
        if isinstance(t, TRef):
            return t.qualname.rpartition(".")[2] in names and _known_root(t.qualname)
        if isinstance(t, TGeneric):
            # pydantic generics (`Context[Any, Any]`) are real subclasses at run time.
            return self.is_sub(t.origin, names, depth + 1)
        if isinstance(t, TClass):
            return any(self.is_sub(b, names, depth + 1) for b in self.bases(t))
        return False


def _known_root(qualname: str) -> bool:
    return qualname.partition(".")[0] in ("mcp", "mcp_types", "pydantic")


CONTEXT = frozenset({"Context"})


def is_context_for_tool(t: TypeExpr | None, classes: Classes) -> bool:
    """`find_context_parameter`: Annotated stripped; the class itself, or one generic level down."""
    from .typeexpr import strip_annotated

    t = strip_annotated(t)
    if t is None:
        return False
    if classes.is_sub(t, CONTEXT) and not (isinstance(t, TGeneric) and not classes.is_sub(t.origin, CONTEXT)):
        return True
    if isinstance(t, TUnion):
        return any(classes.is_sub(a, CONTEXT) for a in t.args)
    if isinstance(t, TGeneric):
        return any(classes.is_sub(a, CONTEXT) for a in t.args)
    return False


def is_context_for_resolver(t: TypeExpr | None, classes: Classes) -> bool:
    """`_is_context_annotation`: one outer Annotated removed; the type or its arguments."""
    if isinstance(t, TAnnotated):
        t = t.inner
    if t is None:
        return False
    if isinstance(t, TUnion):
        return any(classes.is_sub(a, CONTEXT) for a in t.args)
    if isinstance(t, TGeneric) and not classes.is_sub(t.origin, CONTEXT):
        return any(classes.is_sub(a, CONTEXT) for a in t.args)
    return classes.is_sub(t, CONTEXT)


def wants_union(t: TypeExpr | None) -> bool:
    """The consumer asked for the full `ElicitationResult` (or one of its members)."""
    if isinstance(t, TAnnotated):
        t = t.inner
    members = t.args if isinstance(t, TUnion) else (t,)
    names = {"ElicitationResult", "AcceptedElicitation", "DeclinedElicitation", "CancelledElicitation"}
    return any(sdk_of(m) in names for m in members)


def question_arms(t: TypeExpr | None, *, through_annotated: bool = True) -> list[TypeExpr]:
    """The `Elicit[...]`/`Sample`/`ListRoots` arms of a return annotation (typing-deduplicated).

    The SDK's own check (`_check_elicit_return`) does not look through `Annotated`;
    pass `through_annotated=False` to see exactly what it sees.
    """
    if isinstance(t, TAnnotated) and through_annotated:
        t = t.inner
    arms = t.args if isinstance(t, TUnion) else ((t,) if t is not None else ())
    return [a for a in arms if sdk_of(a) in QUESTION_NAMES]


class ResolverFactory:
    """Builds (once each) the `Resolver` nodes reachable from `Resolve(...)` markers."""

    def __init__(self, names: Names, evaluator: Evaluator, classes: Classes) -> None:
        self.names = names
        self.evaluator = evaluator
        self.classes = classes
        self.resolvers: dict[str, Resolver] = {}
        # Not `self._method`: a bound method would make factory and decorators a cycle, which
        # only the (paused) cyclic collector could free, with every tree it reaches.
        self.decorators = Decorators(names, partial(inherited_method, names))
        self._by_key: dict[tuple[object, ...], Resolver] = {}
        self._ids: dict[str, int] = {}

    # ----------------------------------------------------------------- targets
    def target(self, marker: TResolve) -> Target:
        """Describe what `Resolve(<expr>)` refers to."""
        module, expr, scope = marker.module, marker.target, marker.scope
        if expr is None:
            return Target(
                "opaque", ("none", marker.key), module, "?", module.name, problem="Resolve() needs a callable"
            )
        return self.describe(module, expr, scope, marker.key)

    def describe(
        self, module: ParsedModule, expr: ast.expr, scope: Scope | None, key: str, depth: int = 0
    ) -> Target:
        text = spelling(expr)
        if depth > 20:
            return self._opaque(module, key, text)
        if isinstance(expr, ast.Constant):
            return Target(
                "opaque",
                ("const", key),
                module,
                repr(expr.value),
                module.name,
                problem=f"{expr.value!r} is not a callable object",
            )
        if isinstance(expr, ast.Lambda):
            return Target(
                "lambda",
                ("lambda", key),
                module,
                "<lambda>",
                module.name,
                node=expr,
                no_hints=True,
                scope=scope,
            )
        if isinstance(expr, ast.Call):
            return self._call(module, expr, scope, key, text, depth)
        if isinstance(expr, ast.Attribute):
            bound = self.bound_method(module, expr, scope)
            if bound is not None:
                return bound
        symbol = self.names.resolve(module, expr, scope)
        if symbol is None:
            return self._opaque(module, key, text)
        return self._symbol(self.names.follow(symbol), module, key, text, depth)

    def _instance_class(self, symbol: Symbol | None) -> tuple[Value, Defined] | None:
        """For `obj = Cls(...)` (a module-level instance of a project class): (obj, Cls)."""
        if not isinstance(symbol, Value) or not isinstance(symbol.node, ast.Call):
            return None
        callee = self.names.resolve(symbol.module, symbol.node.func, symbol.scope)
        callee = self.names.follow(callee) if callee is not None else None
        if isinstance(callee, Defined) and isinstance(callee.node, ast.ClassDef):
            return symbol, callee
        return None

    def bound_method(self, module: ParsedModule, expr: ast.Attribute, scope: Scope | None) -> Target | None:
        """`service.lookup` where `service = CatalogService()`: a bound method (no `self`)."""
        base = self.names.resolve(module, expr.value, scope)
        found = self._instance_class(self.names.follow(base) if base is not None else None)
        if found is None:
            return None
        instance, cls = found
        return self._bound_target(instance, cls, expr.attr)

    def _bound_target(self, instance: Value, cls: Defined, attr: str) -> Target | None:
        """Method `attr` of `cls` bound to `instance` (None when the class has no such method)."""
        method = self._method(cls, attr)
        if method is None or not isinstance(method.node, ast.FunctionDef | ast.AsyncFunctionDef):
            return None
        qual = f"{cls.qualname}.{attr}" if method.owner is cls else method.qualname
        key = ("bound", str(instance.module.path), instance.name, qual)
        if any(not _is_binding_marker(d) for d in method.node.decorator_list):
            obj = self.decorators.applied(method, class_scope(method.owner))
            return self.from_obj(obj, key, method.module, qual, bound=True, chain=_chain_of(method))
        static = "staticmethod" in _decorator_names(method.node)
        return Target(
            "bound_method",
            key,
            method.module,
            qual,
            method.module.name,
            node=method.node,
            skip=0 if static else 1,
            scope=class_scope(method.owner),
        )

    def from_obj(
        self,
        obj: Obj,
        key: tuple[object, ...],
        module: ParsedModule,
        text: str,
        *,
        bound: bool = False,
        chain: tuple[str, ...] = (),
    ) -> Target:
        """The resolver target a decorated object is (see `decorators.Obj`)."""
        if obj.kind == "property" and bound:
            obj = self.decorators.property_value(obj)  # `svc.prop`: what its getter returns
        if obj.kind == "opaque" or obj.kind == "property":
            reason = obj.opaque or f"`{text}` is a property: its value is computed at run time"
            target = self._opaque(module, str(key), text)
            target.problem, target.problem_code = reason, obj.opaque_code if obj.opaque else "MCPD113"
            target.key = ("opaque", key)
            return target
        inner = obj.innermost
        named = obj.named
        if inner.kind == "partial" or obj.kind == "partial":
            part = obj if obj.kind == "partial" else inner
            base = self.from_obj(part.base, key, module, text) if part.base is not None else None
            if base is None or base.problem:
                return base or self._opaque(module, str(key), text)
            return replace(
                base,
                kind="partial",
                qualname="partial",
                modname="functools",
                skip=base.skip + part.positional,
                no_hints=True,
                signature=base.signature[part.positional :] if base.signature else None,
                is_async=base.is_async if base.is_async is not None else _async_node(base.node),
                decorators=chain,
            )
        if inner.kind not in ("function", "lambda", "instance", "class") or inner.module is None:
            what = inner.qualname or text
            target = self._opaque(module, str(key), text)
            target.key = ("opaque", key)
            target.problem = f"`{what}` is not project code: mcpdeps cannot see its signature"
            return target
        if inner.kind == "instance" and inner.call is None:
            return _not_callable(module, key, text, inner.qualname)
        if inner.kind == "class" and inner.cls is not None:
            base = self._defined(inner.cls, plain=True)
        else:
            skip = 1 if inner.kind == "instance" else 0
            if bound and obj.kind == "function" and obj.binding != "staticmethod":
                skip += 1  # a function (or cache wrapper) binds `self`; an instance does not
            scope = (
                class_scope(inner.call.owner)
                if inner.call is not None
                else (class_scope(inner.owner) if inner.owner is not None else inner.scope)
            )
            base = Target(
                "lambda" if inner.kind == "lambda" else "function",
                key,
                inner.module,
                inner.qualname,
                inner.module.name,
                node=inner.node,  # type: ignore[arg-type]
                skip=skip,
                no_hints=inner.kind == "lambda",
                scope=scope,
            )
            if inner.kind == "instance":
                base.kind = "callable_instance"
        # Identity and names: what `__qualname__`/`__module__` the outermost object carries.
        if named.kind == "instance" and named.cls is not None:
            base.qualname, base.modname = named.cls.qualname, named.cls.module.name
        elif named.module is not None:
            base.qualname, base.modname = named.qualname, named.module.name
        if obj.kind == "instance" and obj.wrapped is not None:
            base.no_hints = True  # `_type_hints` reads `type(obj).__call__`, not the wrapped function
        elif obj.kind == "function" and obj.node is not None and obj.wrapped is not None:
            base.kind = "lambda" if obj.kind == "lambda" else "function"
        if bound and obj.kind == "function" and base.kind == "function":
            base.kind = "classmethod" if obj.binding == "classmethod" else "bound_method"
            if obj.binding == "staticmethod":
                base.kind = "staticmethod"
        base.key = key
        base.is_async = obj.is_async
        base.wrapped_async = inner.qualname if obj.awaits_nothing else None
        base.decorators = chain
        return base

    def _opaque(self, module: ParsedModule, key: str, text: str) -> Target:
        return Target(
            "opaque",
            ("opaque", key),
            module,
            text,
            module.name,
            problem_code="MCPD113",
            problem=f"`{text}` is computed at run time; mcpdeps cannot see which callable it is",
        )

    def _symbol(self, symbol: Symbol, module: ParsedModule, key: str, text: str, depth: int) -> Target:
        if isinstance(symbol, Missing) and not symbol.certain:
            return self._opaque(module, key, text)
        if isinstance(symbol, Missing):
            return Target(
                "opaque", ("missing", key), module, text, module.name, problem=f"`{text}`: {symbol.reason}"
            )
        if isinstance(symbol, External):
            return self._external(symbol, module, key, text)
        if isinstance(symbol, ModuleRef):
            return Target(
                "opaque", ("mod", key), module, text, module.name, problem=f"module {text!r} is not callable"
            )
        if isinstance(symbol, Defined):
            return self._defined(symbol)
        if isinstance(symbol, Value):
            return self._value(symbol, key, text, depth)
        return self._opaque(module, key, text)

    def _external(self, symbol: External, module: ParsedModule, key: str, text: str) -> Target:
        if symbol.is_module:
            return Target(
                "opaque", ("mod", key), module, text, module.name, problem=f"module {text!r} is not callable"
            )
        head, _, name = symbol.qualname.rpartition(".")
        if head == "builtins" and hasattr(builtins, name):
            obj = getattr(builtins, name)
            if not callable(obj):
                return Target(
                    "builtin",
                    ("b", name),
                    module,
                    name,
                    "builtins",
                    problem=f"{obj!r} is not a callable object",
                )
            try:
                sig = list(inspect.signature(obj).parameters)
            except (ValueError, TypeError) as exc:
                return Target("builtin", ("b", name), module, name, "builtins", problem=str(exc))
            return Target("builtin", ("b", name), module, name, "builtins", no_hints=True, signature=sig)
        unfound = self.names.unfound_module(module, symbol.qualname)
        if unfound is not None:
            return self._unfound(module, key, text, *unfound)
        return self._opaque(module, key, text)

    def _unfound(self, module: ParsedModule, key: str, text: str, name: str, close: str | None) -> Target:
        """`Resolve(check_stock)` imported from a module Python cannot find: a typo of a project
        module fails the server's import (MCPD007); any other may be installed where it runs."""
        if close is not None:
            problem = f"`{text}`: module {name!r} was not found (did you mean {close!r}?)"
            return Target("opaque", ("missing", key), module, text, module.name, problem=problem)
        target = self._opaque(module, key, text)
        target.problem = (
            f"`{text}` comes from module {name!r}, which is neither in the project nor installed "
            "where mcpdeps runs; the server cannot start unless it is installed where it runs"
        )
        return target

    def _defined(self, symbol: Defined, plain: bool = False) -> Target:
        node, module = symbol.node, symbol.module
        if isinstance(node, ast.ClassDef):
            fields = self._class_signature(symbol)
            return Target(
                "class",
                ("class", str(module.path), symbol.qualname),
                module,
                symbol.qualname,
                module.name,
                node=node,
                no_hints=True,
                fields=fields,
            )
        if isinstance(node, ast.Lambda):
            return Target(
                "lambda",
                ("lambda", str(module.path), node.lineno, node.col_offset),
                module,
                "<lambda>",
                module.name,
                node=node,
                no_hints=True,
            )
        key = ("def", str(module.path), symbol.qualname, node.lineno)  # a name may be defined twice
        if not plain and any(not _is_binding_marker(d) for d in node.decorator_list):
            scope = class_scope(symbol.owner) if symbol.owner is not None else None
            obj = self.decorators.applied(symbol, scope)
            chain = () if replaced(obj, node) else _chain_of(symbol)
            return self.from_obj(obj, key, module, symbol.qualname, chain=chain)
        kind: ResolverKind = "function"
        skip = 0
        if symbol.owner is not None:
            decorators = _decorator_names(node)
            if "staticmethod" in decorators:
                kind = "staticmethod"
            elif "classmethod" in decorators:
                kind, skip = "classmethod", 1
            else:
                kind = "unbound_method"
        return Target(
            kind,
            key,
            module,
            symbol.qualname,
            module.name,
            node=node,
            skip=skip,
            scope=class_scope(symbol.owner),
        )

    def _value(self, value: Value, key: str, text: str, depth: int) -> Target:
        node = value.node
        if isinstance(node, ast.Lambda):
            return Target(
                "lambda",
                ("lambda", str(value.module.path), node.lineno, node.col_offset),
                value.module,
                "<lambda>",
                value.module.name,
                node=node,
                no_hints=True,
                scope=value.scope,
            )
        if isinstance(node, ast.Call):
            return self._call(
                value.module, node, value.scope, f"{value.module.path}:{value.name}", text, depth
            )
        if isinstance(node, ast.Constant):
            return Target(
                "opaque",
                ("const", key),
                value.module,
                text,
                value.module.name,
                problem=f"{node.value!r} is not a callable object",
            )
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name | ast.Attribute):
            return self.describe(value.module, node, value.scope, key, depth + 1)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call):
            # `lookup = Service().lookup`: a method bound to an instance made on the spot (once).
            found = self._instance_class(Value(value.module, node.value, value.name, None, value.scope))
            bound = self._bound_target(value, found[1], node.attr) if found is not None else None
            if bound is not None:
                return bound
        return self._opaque(value.module, key, text)

    def _call(
        self, module: ParsedModule, call: ast.Call, scope: Scope | None, key: str, text: str, depth: int
    ) -> Target:
        """`partial(f, ...)`, `Limiter(...)` (callable instance), `make_lookup()` (closure)."""
        callee_symbol = self.names.resolve(module, call.func, scope)
        callee = self.names.follow(callee_symbol) if callee_symbol is not None else None
        if isinstance(callee, External) and callee.qualname in _NO_SIGNATURE:
            return Target(
                "opaque",
                ("nosig", key),
                module,
                text,
                module.name,
                problem=f"callable {text} is not supported by signature (inspect.signature raises)",
            )
        if isinstance(callee, External) and sdk_name(callee.qualname) == "partial" and call.args:
            base = self.describe(module, call.args[0], scope, key, depth + 1)
            if base.problem:
                return base
            return Target(
                "partial",
                ("partial", key),
                base.module,
                "partial",
                "functools",
                node=base.node,
                skip=base.skip + len(call.args) - 1,
                no_hints=True,
                fields=base.fields,
                signature=base.signature[len(call.args) - 1 :] if base.signature else None,
            )
        if isinstance(callee, Defined) and isinstance(callee.node, ast.ClassDef):
            call_method = self._method(callee, "__call__")
            if call_method is None:
                return _not_callable(module, key, text, callee.qualname)
            return Target(
                "callable_instance",
                ("inst", key),
                callee.module,
                callee.qualname,
                callee.module.name,
                node=call_method.node,
                skip=1,
                scope=class_scope(call_method.owner),
            )  # type: ignore[arg-type]
        if (
            isinstance(callee, Defined)
            and isinstance(callee.node, ast.FunctionDef | ast.AsyncFunctionDef)
            and (call.args or call.keywords or callee.node.decorator_list)
        ) or isinstance(call.func, ast.Call):
            # `deco(g)`, `retry(3)(g)`, `make_lookup(x)`: what the call returns, decorators applied.
            obj = self.decorators.expr(module, call, scope, {}, depth)
            return self.from_obj(obj, ("call", key), module, text)
        if isinstance(callee, Defined) and isinstance(callee.node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = self._closure(callee)
            if inner is not None:
                inner.key = ("closure", *inner.key, key)  # each factory call makes a distinct resolver
                return inner
        return self._opaque(module, key, text)

    def _closure(self, factory: Defined) -> Target | None:
        node = factory.node
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        scope = Scope(factory.module, node, factory.qualname)
        local = scope.bindings
        for ret in returns_of(node):
            if isinstance(ret.value, ast.Name) and ret.value.id in local:
                binding = local[ret.value.id]
                inner = binding.node
                if binding.kind == "def" and isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                    qual = f"{factory.qualname}.<locals>.{inner.name}"
                    return Target(
                        "function",
                        ("def", str(factory.module.path), qual),
                        factory.module,
                        qual,
                        factory.module.name,
                        node=inner,
                        scope=scope,
                    )
            if isinstance(ret.value, ast.Lambda):
                return Target(
                    "lambda",
                    ("lambda", str(factory.module.path), ret.value.lineno),
                    factory.module,
                    "<lambda>",
                    factory.module.name,
                    node=ret.value,
                    no_hints=True,
                    scope=scope,
                )
        return None

    def _method(self, cls: Defined, name: str) -> Defined | None:
        return inherited_method(self.names, cls, name)

    def _class_signature(self, cls: Defined) -> list[tuple[str, ast.AST]]:
        """Parameters `inspect.signature(cls)` shows: `__init__` minus self, else dataclass/model fields."""
        init = self._method(cls, "__init__")
        if init is not None and isinstance(init.node, ast.FunctionDef | ast.AsyncFunctionDef):
            return [(arg.arg, arg) for arg, *_ in function_params(init.node)[1:]]
        assert isinstance(cls.node, ast.ClassDef)
        tclass = TClass(cls.module.name, cls.qualname, cls.node, cls.module)
        is_model = self.classes.is_sub(tclass, frozenset({"BaseModel"}))
        is_tuple = any(  # `class Point(NamedTuple)`: its fields are its `__new__` parameters
            isinstance(b, TRef) and b.qualname.rpartition(".")[2] == "NamedTuple"
            for b in self.classes.bases(tclass)
        )
        if is_model or is_tuple or "dataclass" in _decorator_names(cls.node):
            return [
                ((_field_alias(s.value) if is_model else None) or s.target.id, s)
                for s in cls.node.body
                if isinstance(s, ast.AnnAssign)
                and isinstance(s.target, ast.Name)
                and "ClassVar" not in ast.unparse(s.annotation)
                and not _init_false(s.value)
            ]
        return []

    # --------------------------------------------------------------- resolvers
    def get(self, marker: TResolve) -> Resolver:
        """The resolver node for a marker (built once per distinct callable)."""
        target = self.target(marker)
        existing = self._by_key.get(target.key)
        if existing is not None:
            return existing
        return self._build(target, marker.span)

    def _new_id(self, base: str) -> str:
        n = self._ids.get(base, 0)
        self._ids[base] = n + 1
        return base if n == 0 else f"{base}#{n}"

    def _build(self, target: Target, use_span: Span | None) -> Resolver:
        node = target.node
        name = (
            target.qualname.rpartition(".")[2]
            if target.kind not in ("lambda", "partial")
            else target.qualname
        )
        span = target.module.span(node) if node is not None else use_span
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            span = Span(
                target.module.display, node.lineno, node.col_offset + 1, node.lineno, node.col_offset + 1
            )
        resolver = Resolver(
            id=self._new_id(f"{target.modname}:{target.qualname}"),
            name=name,
            qualname=target.qualname,
            module=target.modname,
            kind=target.kind,
            span=span,
            is_async=target.is_async
            if target.is_async is not None
            else isinstance(node, ast.AsyncFunctionDef),
            problem=target.problem,
            problem_code=target.problem_code if target.problem else None,
            node=node,
            anchored=node is not None,
            decorators=target.decorators,
            wrapped_async=target.wrapped_async,
        )
        self._by_key[target.key] = resolver
        self.resolvers[resolver.id] = resolver
        if target.problem:
            return resolver
        if target.fields is not None:
            resolver.parameters = [
                Parameter(n, "tool_argument", target.module.span(src))
                for n, src in target.fields[target.skip :]
            ]
        elif target.signature is not None:
            resolver.parameters = [Parameter(n, "tool_argument", use_span) for n in target.signature]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            self._classify(resolver, target, node)
        return resolver

    def _classify(self, resolver: Resolver, target: Target, node: FunctionNode) -> None:
        module = target.module
        params = function_params(node)[target.skip :]
        hints: dict[str, TypeExpr] = {}
        if not target.no_hints and not isinstance(node, ast.Lambda):
            with self.names.tracing() as needs:
                hints = self._hints(module, node, target.scope)
            resolver.needs = {str(path): where for path, where in needs.items()}
            for hname, t in hints.items():
                err = first_error(t)
                if err is not None:
                    where = "return annotation" if hname == "return" else f"annotation of {hname!r}"
                    resolver.hints_error = f"its {where} cannot be evaluated ({err.reason})"
                    hints = {}
                    break
        resolver.is_generator = contains_yield(node)
        for arg, variadic, posonly, default in params:
            t = hints.get(arg.arg)
            p = written_parameter(module, arg, variadic, posonly, default, t)
            if t is not None and is_context_for_resolver(t, self.classes):
                p.kind = "context"
            elif (marker := resolve_marker(t)) is not None:
                p.kind = "resolved"
                p.resolver = self.get(marker).id
                p.wants_union = wants_union(t)
            resolver.parameters.append(p)
        resolver.return_type = hints.get("return")
        resolver.questions = self._questions(resolver, module, node)

    def _hints(
        self, module: ParsedModule, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope | None
    ) -> dict[str, TypeExpr]:
        """Evaluated annotations by parameter name (plus `return`), as get_type_hints would see them."""
        hints: dict[str, TypeExpr] = {}
        for arg, *_ in function_params(node):
            t = self.evaluator.annotation(module, arg.annotation, scope)
            if t is not None:
                hints[arg.arg] = t
        ret = self.evaluator.annotation(module, node.returns, scope)
        if ret is not None:
            hints["return"] = ret
        return hints

    def _questions(self, resolver: Resolver, module: ParsedModule, node: FunctionNode) -> list[Question]:
        """Questions from the return annotation's arms, detailed by `return Elicit(...)` statements."""
        found: list[Question] = []
        for arm in question_arms(resolver.return_type):
            kind = QUESTION_NAMES[sdk_of(arm) or ""]
            model_t = arm.args[0] if isinstance(arm, TGeneric) and arm.args else None
            found.append(
                Question(
                    kind,
                    resolver.span,
                    model=display(model_t) if model_t else None,  # type: ignore[arg-type]
                    model_type=model_t,
                    fields=self._fields(model_t),
                )
            )
        if isinstance(node, ast.Lambda):
            return found
        for ret in returns_of(node):
            call = ret.value
            if not isinstance(call, ast.Call):
                continue
            kind_name = sdk_name(self.names.canonical(module, call.func, None))
            if kind_name not in QUESTION_NAMES:
                continue
            kind = QUESTION_NAMES[kind_name]
            message = module.segment(call.args[0]) if call.args else None
            model_t = None
            if kind == "elicit":
                schema = (
                    call.args[1]
                    if len(call.args) > 1
                    else next((k.value for k in call.keywords if k.arg == "schema"), None)
                )
                if kind_name == "Elicit" and schema is not None:
                    model_t = self.evaluator.expr(module, schema, None)
                msg_kw = next((k.value for k in call.keywords if k.arg == "message"), None)
                message = message or (module.segment(msg_kw) if msg_kw is not None else None)
            q = next((q for q in found if q.kind == kind and q.node is None), None)
            if q is None:
                q = Question(kind, module.span(call))  # type: ignore[arg-type]
                found.append(q)
            q.span, q.node, q.message = module.span(call), call, message if kind != "list_roots" else None
            if kind == "sample":
                fill_sample(q, call, node)
            if model_t is not None:
                q.model, q.model_type, q.fields = display(model_t), model_t, self._fields(model_t)
        return found

    def _fields(self, t: TypeExpr | None) -> list[tuple[str, str]]:
        if not isinstance(t, TClass):
            return []
        return [
            (s.target.id, t.source.segment(s.annotation))  # as written, like every annotation
            for s in t.node.body
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
        ]


def inherited_method(names: Names, cls: Defined, name: str, depth: int = 0) -> Defined | None:
    """A class's own member `name`, else the first found in its bases (depth-first, as far as
    the project's source goes)."""
    found = names.member(cls, name)
    if isinstance(found, Defined):
        return found
    if depth > 10 or not isinstance(cls.node, ast.ClassDef):
        return None
    for base in cls.node.bases:
        sym = names.resolve(cls.module, base)
        sym = names.follow(sym) if sym is not None else None
        if isinstance(sym, Defined) and isinstance(sym.node, ast.ClassDef):
            m = inherited_method(names, sym, name, depth + 1)
            if m is not None:
                return m
    return None
