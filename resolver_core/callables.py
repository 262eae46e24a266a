"""What the `x` in `Resolve(x)` is: a function, bound method, class, partial, callable object...

Mirrors what the SDK does with the object at registration: which signature
`inspect.signature` gives (bound methods and classmethods lose their first
parameter, `functools.partial` its positionally-bound ones, a class exposes its
`__init__`/fields), and whether `typing.get_type_hints` can read hints at all
(not for classes, partials and lambdas — so their parameters can only be tool
arguments by name). Targets static analysis cannot see through are marked
`opaque` instead of guessed (`target.py` describes those, and the `Target` itself).
`resolvers.py` turns a target into its `Resolver` node.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import replace
from functools import partial

from .class_members import class_signature, decorator_names, inherited_method, self_class
from .closures import closure_target, not_callable_result
from .decorated import Obj, replaced
from .decorators import Decorators
from .evaluator import Evaluator
from .held_instances import instance_class, stored_instance
from .made_instances import made_here
from .model import ResolverKind
from .passed_resolvers import PassedResolvers
from .signatures import Classes, class_scope
from .source import ParsedModule, spelling
from .symbols import (
    Defined,
    External,
    Missing,
    ModuleRef,
    Names,
    Param,
    Scope,
    Symbol,
    Value,
    sdk_name,
)
from .target import (
    Target,
    builtin_target,
    installed_target,
    module_target,
    not_callable_target,
    opaque_target,
)
from .typeexpr import TResolve
from .written_decorators import binding_marker, written_chain

_NO_SIGNATURE = frozenset({"operator.itemgetter", "operator.attrgetter", "operator.methodcaller"})
"""Standard callables whose instances `inspect.signature` refuses (the SDK's T10)."""


def _chain_of(symbol: Defined) -> tuple[str, ...]:
    return tuple(written_chain(symbol.module.segment, symbol.node, for_tool=False))


def _async_node(node: ast.AST | None) -> bool:
    return isinstance(node, ast.AsyncFunctionDef)


class Targets:
    """Describes `Resolve(...)` targets (and tools given as bound methods) from the source."""

    def __init__(self, names: Names, evaluator: Evaluator, classes: Classes) -> None:
        self.names = names
        self.evaluator = evaluator
        self.classes = classes
        # Not `self.method`: a bound method would make targets and decorators a cycle, which
        # only the (paused) cyclic collector could free, with every tree it reaches.
        self.decorators = Decorators(names, partial(inherited_method, names))
        self.passed: PassedResolvers | None = None

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
            return opaque_target(module, key, text)
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
            read = self.names.resolve(module, expr, scope)  # `getattr(deps, "load_d")`: deps.load_d
            if read is not None:
                return self._symbol(self.names.follow(read), module, key, text, depth)
            return self._call(module, expr, scope, key, text, depth)
        if isinstance(expr, ast.Attribute):
            bound = self.bound_method(module, expr, scope)
            if bound is not None:
                return bound
        symbol = self.names.resolve(module, expr, scope)
        if symbol is None:
            return opaque_target(module, key, text)
        return self._symbol(self.names.follow(symbol), module, key, text, depth)

    def _instance_class(self, symbol: Symbol | None) -> tuple[Value, Defined] | None:
        """For `obj = Cls(...)` or `obj = get_cls()` (an instance of a project class): (obj, Cls)."""
        return instance_class(self.names, symbol)

    def bound_method(self, module: ParsedModule, expr: ast.Attribute, scope: Scope | None) -> Target | None:
        """`service.lookup` where `service = CatalogService()`: a bound method (no `self`)."""
        base = self.names.resolve(module, expr.value, scope)
        found = self._instance_class(self.names.follow(base) if base is not None else None)
        cls = self_class(self.names, module, base, scope) if found is None else None
        if cls is not None:  # `self.search` in a method: bound to whichever instance runs it
            found = Value(module, expr.value, ast.unparse(expr.value), scope=scope), cls
        if found is None and isinstance(expr.value, ast.Attribute):
            found = self._instance_class(stored_instance(self.names, module, expr.value, scope))
        if found is None and isinstance(expr.value, ast.Call):  # `Deps().load_d`: made where written
            found = self._instance_class(made_here(module, expr.value, scope))
        if found is None:
            return None
        instance, cls = found
        return self._bound_target(instance, cls, expr.attr)

    def _bound_target(self, instance: Value, cls: Defined, attr: str) -> Target | None:
        """Method `attr` of `cls` bound to `instance` (None when the class has no such method)."""
        method = self.method(cls, attr)
        if method is None or not isinstance(method.node, ast.FunctionDef | ast.AsyncFunctionDef):
            return None
        qual = f"{cls.qualname}.{attr}" if method.owner is cls else method.qualname
        key = ("bound", str(instance.module.path), instance.name, qual)
        if any(not binding_marker(d) for d in method.node.decorator_list):
            obj = self.decorators.applied(method, class_scope(method.owner))
            return self.from_obj(obj, key, method.module, qual, bound=True, chain=_chain_of(method))
        static = "staticmethod" in decorator_names(method.node)
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
            target = opaque_target(module, str(key), text)
            target.problem, target.problem_kind = reason, obj.opaque_kind if obj.opaque else "opaque"
            target.key = ("opaque", key)
            return target
        inner = obj.innermost
        named = obj.named
        if inner.kind == "partial" or obj.kind == "partial":
            part = obj if obj.kind == "partial" else inner
            base = self.from_obj(part.base, key, module, text) if part.base is not None else None
            if base is None or base.problem:
                return base or opaque_target(module, str(key), text)
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
            target = opaque_target(module, str(key), text)
            target.key = ("opaque", key)
            target.problem = f"`{what}` is not project code: mcpdeps cannot see its signature"
            return target
        if inner.kind == "instance" and inner.call is None:
            return not_callable_target(module, key, text, inner.qualname)
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
                node=inner.node,
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

    def _symbol(self, symbol: Symbol, module: ParsedModule, key: str, text: str, depth: int) -> Target:
        if isinstance(symbol, Missing) and not symbol.certain:
            return opaque_target(module, key, text)
        if isinstance(symbol, Missing):
            return Target(
                "opaque", ("missing", key), module, text, module.name, problem=f"`{text}`: {symbol.reason}"
            )
        if isinstance(symbol, External):
            return self._external(symbol, module, key, text)
        if isinstance(symbol, ModuleRef):
            return module_target(module, key, text)
        if isinstance(symbol, Defined):
            return self._defined(symbol)
        if isinstance(symbol, Value):
            return self._value(symbol, key, text, depth)
        if isinstance(symbol, Param) and self.passed is not None:  # `Resolve(resolve_login)`, given
            return self.passed.target(self.describe, symbol, key, depth) or opaque_target(module, key, text)
        return opaque_target(module, key, text)

    def _external(self, symbol: External, module: ParsedModule, key: str, text: str) -> Target:
        if symbol.is_module:
            return module_target(module, key, text)
        head, _, name = symbol.qualname.rpartition(".")
        if head == "builtins" and hasattr(builtins, name):
            return builtin_target(module, name)
        unfound = self.names.unfound_module(module, symbol.qualname)
        if unfound is not None:
            return self._unfound(module, key, text, *unfound)
        return installed_target(module, key, text, head) if head else opaque_target(module, key, text)

    def _unfound(self, module: ParsedModule, key: str, text: str, name: str, close: str | None) -> Target:
        """`Resolve(check_stock)` imported from a module Python cannot find: a typo of a project
        module fails the server's import (an error); any other may be installed where it runs."""
        if close is not None:
            problem = f"`{text}`: module {name!r} was not found (did you mean {close!r}?)"
            return Target("opaque", ("missing", key), module, text, module.name, problem=problem)
        target = opaque_target(module, key, text)
        target.problem = (
            f"`{text}` comes from module {name!r}, which is neither in the project nor installed "
            "where mcpdeps runs; the server cannot start unless it is installed where it runs"
        )
        return target

    def _defined(self, symbol: Defined, plain: bool = False) -> Target:
        node, module = symbol.node, symbol.module
        if isinstance(node, ast.ClassDef):
            fields = class_signature(self.names, self.classes, symbol)
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
        if not plain and any(not binding_marker(d) for d in node.decorator_list):
            scope = class_scope(symbol.owner) if symbol.owner is not None else None
            obj = self.decorators.applied(symbol, scope)
            chain = () if replaced(obj, node) else _chain_of(symbol)
            return self.from_obj(obj, key, module, symbol.qualname, chain=chain)
        kind: ResolverKind = "function"
        skip = 0
        if symbol.owner is not None:
            decorators = decorator_names(node)
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
            scope=class_scope(symbol.owner) if symbol.owner is not None else symbol.scope,
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
        earlier = self.names.rebound_from(value) if isinstance(node, ast.Call) else None
        if earlier is not None:  # `load_d = functools.cache(load_d)`: read as `@functools.cache`
            chain = _chain_of(earlier) if isinstance(earlier, Defined) else ()
            obj = self.decorators.value(value, depth)
            return self.from_obj(
                obj, ("call", f"{value.module.path}:{value.name}"), value.module, text, chain=chain
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
        return opaque_target(value.module, key, text)

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
            call_method = self.method(callee, "__call__")
            if call_method is None:
                return not_callable_target(module, key, text, callee.qualname)
            return Target(
                "callable_instance",
                ("inst", key),
                callee.module,
                callee.qualname,
                callee.module.name,
                node=call_method.node,
                skip=1,
                scope=class_scope(call_method.owner),
            )
        if (
            isinstance(callee, Defined)
            and isinstance(callee.node, ast.FunctionDef | ast.AsyncFunctionDef)
            and (call.args or call.keywords or callee.node.decorator_list)
        ) or isinstance(call.func, ast.Call):
            # `deco(g)`, `retry(3)(g)`, `make_lookup(x)`: what the call returns, decorators applied.
            obj = self.decorators.expr(module, call, scope, {}, depth)
            return self.from_obj(obj, ("call", key), module, text)
        if isinstance(callee, Defined) and isinstance(callee.node, ast.FunctionDef | ast.AsyncFunctionDef):
            given = not_callable_result(callee)
            if given is not None:  # `Resolve(current_user())`: FastAPI's `Depends(get_db())` slip
                problem = f"`{text}` is not a callable object: {given}; pass the function itself"
                return Target("opaque", ("result", key), module, text, module.name, problem=problem)
            inner = closure_target(callee)
            if inner is not None:
                inner.key = ("closure", *inner.key, key)  # each factory call makes a distinct resolver
                return inner
        return opaque_target(module, key, text)

    def method(self, cls: Defined, name: str) -> Defined | None:
        return inherited_method(self.names, cls, name)
