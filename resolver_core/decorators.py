"""What a decorated name is bound to, the way Python applies decorators — without running them.

`@a @b(x) def f` binds `f` to `a(b(x)(f))`; `f = deco(g)` binds `f` to `deco(g)`. The SDK then
reads *that* object: `inspect.signature` follows `__wrapped__` (set by `functools.wraps`,
`update_wrapper`, `lru_cache`...), its hints come from the same annotations (copied by
`wraps`), `__name__`/`__qualname__` come from the wrapped function only when `wraps` copied
them, and whether it is awaited is the outermost object's own business (`is_async_callable`).

The model follows decorators written in the project (any module, factories, stacks, classes
used as decorators, partials) by reading what their `return` gives back, and the few library
decorators whose effect is known (`functools.wraps`/`update_wrapper`/`cache`/`lru_cache`,
identity markers such as `typing.final`). Anything else is `Obj.opaque`: the caller reports it
(`opaque`) instead of guessing.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import replace

from .annotation_writes import with_written
from .decorated import MAX_DEPTH, MAX_WRAPPED, Obj, opaque, wrapping_depth
from .library_decorators import DEPRECATING, IDENTITY, KEEPING_ASYNC, PROPERTIES, WRAPPING, span_decorator
from .sdk_flags import deciding, live_body
from .signatures import returns_of
from .source import ParsedModule
from .symbols import Defined, Element, External, Names, Scope, Symbol, Value, lambda_qualname
from .written_decorators import binding_marker, is_registration


def _text(module: ParsedModule, node: ast.AST) -> str:
    return module.segment(node)


class Decorators:
    """Applies decorators (and `deco(g)` calls) to project functions, memoised per def."""

    def __init__(self, names: Names, method_of: object) -> None:
        self.names = names
        self._method_of = method_of  # `callables.inherited_method`: a class's own or inherited member
        self._applied: dict[tuple[int, str], Obj] = {}
        self._active: set[int] = set()

    # ------------------------------------------------------------------ entry points
    def applied(self, symbol: Defined, scope: Scope | None = None) -> Obj:
        """What the name a `def` binds refers to once every decorator on it has run."""
        node = symbol.node
        key = (id(node), symbol.qualname)
        found = self._applied.get(key)
        if found is not None:
            return found
        if id(node) in self._active:
            return opaque(f"decorator of {symbol.qualname!r} refers to it while it is being defined")
        self._active.add(id(node))
        try:
            obj = self._apply_all(symbol, scope, getattr(node, "decorator_list", []))
        finally:
            self._active.discard(id(node))
        self._applied[key] = obj
        return obj

    def below(
        self,
        symbol: Defined,
        scope: Scope | None,
        decorators: Sequence[ast.expr],
        through: ast.expr | None = None,
    ) -> Obj:
        """The function after only `decorators` ran (those below a `@server.tool()`; `through`:
        the registering decorator among them whose result is what it registers, read too)."""
        return self._apply_all(symbol, scope, decorators, through=through)

    def value(self, value: Value, depth: int = 0, env: dict[str, Obj] | None = None) -> Obj:
        """What `name = <call>` binds (`f = deco(g)`); `f = deco(f)` is `@deco` on the earlier `f`.
        `env`: the arguments of the function being analysed, when `name` is one of its locals
        (`done = base(func)`, then `return done`)."""
        node = value.node
        earlier = self.names.rebound_from(value)
        if earlier is None or not isinstance(node, ast.Call):
            return self.expr(value.module, node, value.scope, env or {}, depth)
        cur = self._symbol(earlier, value.module, node.args[0], None, {}, depth + 1)
        return cur if cur.kind == "opaque" else self._decorate(value.module, node.func, None, {}, cur, depth)

    def property_value(self, prop: Obj) -> Obj:
        """`instance.prop` for a `property`/`cached_property`: what the getter returns, when the
        getter returns something nameable (`return lookup`); else it stays a property."""
        node = prop.node
        if not isinstance(node, ast.FunctionDef) or prop.module is None:
            return prop
        getter = Defined(prop.module, node, prop.qualname, prop.owner)
        value = self._returned(getter, [Obj("external", qualname="self")], {}, 0, None)
        return prop if value.kind in ("opaque", "external") else value

    # ------------------------------------------------------------------ applying
    def plain(self, symbol: Defined, scope: Scope | None) -> Obj:
        node = symbol.node
        if isinstance(node, ast.ClassDef):
            return Obj("class", symbol.module, node, symbol.qualname, scope, owner=symbol.owner, cls=symbol)
        kind = "lambda" if isinstance(node, ast.Lambda) else "function"
        return Obj(
            kind,
            symbol.module,
            node,
            symbol.qualname,
            scope,
            owner=symbol.owner,
            is_async=isinstance(node, ast.AsyncFunctionDef),
        )

    def _apply_all(
        self,
        symbol: Defined,
        scope: Scope | None,
        decorators: Sequence[ast.expr],
        env: dict[str, Obj] | None = None,
        through: ast.expr | None = None,
    ) -> Obj:
        cur = self.plain(symbol, scope)
        module = symbol.module
        for written in reversed(decorators):
            if written is not through and is_registration(written):
                continue  # `server.tool()` returns the function it registers
            marker = binding_marker(written)
            if marker is not None:
                cur = replace(cur, binding=marker)
                continue
            cur = self._decorate(module, written, scope, env or {}, cur, 0)
            if cur.kind == "opaque":
                return cur
            if wrapping_depth(cur) > MAX_WRAPPED:
                # `inspect.unwrap` (the SDK) follows up to the recursion limit; past this
                # depth say so rather than read the signature of some wrapper halfway down.
                return opaque(f"more than {MAX_WRAPPED} stacked decorators: mcpdeps does not follow them")
        return cur

    def _decorate(
        self,
        module: ParsedModule,
        written: ast.expr,
        scope: Scope | None,
        env: dict[str, Obj],
        cur: Obj,
        depth: int,
    ) -> Obj:
        """`@written` applied to `cur`: a decorator as written, or `f = written(f)`."""
        deco = self.expr(module, written, scope, env, depth)
        if deco.kind == "opaque" and not str(deco.opaque).startswith("decorator"):
            deco = replace(deco, opaque=f"decorator `@{_text(module, written)}`: {deco.opaque}")
        return replace(self.call(deco, [cur], {}, depth), decorated=True)

    # ------------------------------------------------------------------ expressions
    def expr(
        self, module: ParsedModule, node: ast.expr, scope: Scope | None, env: dict[str, Obj], depth: int
    ) -> Obj:
        """The object an expression evaluates to (`env`: the analysed function's arguments)."""
        if depth > MAX_DEPTH:
            return opaque("decorators nested too deeply to follow")
        if isinstance(node, ast.Name) and node.id in env:
            return env[node.id]
        if isinstance(node, ast.Lambda):
            return Obj("lambda", module, node, lambda_qualname(scope), scope)
        if isinstance(node, ast.Call):
            func = self.expr(module, node.func, scope, env, depth + 1)
            if func.kind == "opaque" and (
                bound := self._method_of_instance(module, node.func, scope, env, depth)
            ):
                return self._method_call(module, node, scope, env, depth, *bound)
            if func.kind == "opaque" and span_decorator(self.names, module, node.func, scope):
                return Obj("keeping")  # `tracer.start_as_current_span("x")`: a `functools.wraps` wrapper
            if func.kind == "opaque" and is_registration(node):
                # the SDK's `server.tool(...)`: the decorator returning the function it registers,
                # or (`server.tool(fn)`) that function, registered and returned
                first = self.expr(module, node.args[0], scope, env, depth + 1) if node.args else None
                return Obj("identity") if first is None or first.kind in ("opaque", "external") else first
            args = [self.expr(module, a, scope, env, depth + 1) for a in node.args]
            if any(isinstance(a, ast.Starred) for a in node.args):
                return opaque(f"`{_text(module, node)}` passes *args: mcpdeps cannot follow it")
            kwargs = {
                k.arg: self.expr(module, k.value, scope, env, depth + 1) for k in node.keywords if k.arg
            }
            return self.call(func, args, kwargs, depth + 1, module.segment(node))
        if isinstance(
            node, ast.Name | ast.Attribute | Element
        ):  # (`Element`: a listed value of another module)
            symbol = self.names.resolve(module, node, scope)
            if symbol is not None:
                return self._symbol(symbol, module, node, scope, env, depth)
        return opaque(f"`{_text(module, node)}` is computed at run time; mcpdeps cannot follow it")

    def overridden(self, module: ParsedModule, registrar: ast.expr, scope: Scope | None) -> bool:
        """Whether a registering decorator as written (`@mcp.tool()`) calls a method the project
        defines on the server's class (an `MCPServer` subclass overriding `tool`): what that
        method returns decides what is registered."""
        return self.override(module, registrar, scope) is not None

    def override(self, module: ParsedModule, registrar: ast.expr, scope: Scope | None) -> Defined | None:
        """The method of `overridden`, if any."""
        func = registrar.func if isinstance(registrar, ast.Call) else registrar
        found = self._method_of_instance(module, func, scope, {}, 0)
        return found[1] if found is not None else None

    def through(self, module: ParsedModule, registrar: ast.Call, fn: ast.expr, scope: Scope | None) -> Obj:
        """What `mcp.tool(name="t")(t)` hands the SDK when `tool` is the server class's own
        (`overridden`): the override's decorator applied to `t`."""
        decorator = self.expr(module, registrar, scope, {}, 0)
        return self.call(decorator, [self.expr(module, fn, scope, {}, 0)], {}, 1)

    def _method_of_instance(
        self, module: ParsedModule, func: ast.expr, scope: Scope | None, env: dict[str, Obj], depth: int
    ) -> tuple[Obj, Defined] | None:
        """`obj.method` where `obj` is an instance of a project class whose source defines
        `method` (its own or a project base's, undecorated): the instance and the method. A
        server subclass overriding `tool` (`def tool(self, *args, **kwargs)` wrapping each
        function before `super().tool(...)` registers it) is one: what `@mcp.tool()` registers
        is what the override hands the SDK, not the def it decorates."""
        if not isinstance(func, ast.Attribute):
            return None
        owner = self.expr(module, func.value, scope, env, depth + 1)
        if owner.kind != "instance" or owner.cls is None:
            return None
        method = self._method_of(owner.cls, func.attr)  # type: ignore[operator]
        if (
            isinstance(method, Defined)
            and isinstance(method.node, ast.FunctionDef)
            and not method.node.decorator_list
        ):
            return owner, method
        return None

    def _method_call(
        self,
        module: ParsedModule,
        node: ast.Call,
        scope: Scope | None,
        env: dict[str, Obj],
        depth: int,
        owner: Obj,
        method: Defined,
    ) -> Obj:
        """What `obj.method(...)` returns, `obj` bound to the method's `self`."""
        if any(isinstance(a, ast.Starred) for a in node.args):
            return opaque(f"`{_text(module, node)}` passes *args: mcpdeps cannot follow it")
        args = [self.expr(module, a, scope, env, depth + 1) for a in node.args]
        kwargs = {k.arg: self.expr(module, k.value, scope, env, depth + 1) for k in node.keywords if k.arg}
        return self._returned(method, [owner, *args], kwargs, depth + 1, None)

    def _symbol(
        self,
        symbol: Symbol,
        module: ParsedModule,
        node: ast.expr,
        scope: Scope | None,
        env: dict[str, Obj],
        depth: int,
    ) -> Obj:
        """The object a name (`node`, written in `module`) bound to `symbol` refers to."""
        symbol = self.names.follow(symbol)
        if isinstance(symbol, External):
            return Obj("external", qualname=symbol.qualname)
        if isinstance(symbol, Defined):
            if isinstance(symbol.node, ast.ClassDef):
                return self.plain(symbol, scope)
            where = _def_scope(symbol, module, scope)
            if env and where is not None:  # a wrapper inside the decorator: `@wraps(fn)` needs fn
                return self._apply_all(symbol, where, getattr(symbol.node, "decorator_list", []), env)
            return self.applied(symbol, where)
        if isinstance(symbol, Value) and isinstance(symbol.node, ast.Call):
            local = symbol.scope is not None and scope is not None and symbol.scope.function is scope.function
            return self.value(symbol, depth + 1, env if local else None)
        return opaque(f"`{_text(module, node)}` is computed at run time; mcpdeps cannot follow it")

    # ------------------------------------------------------------------ calls
    def call(
        self, func: Obj, args: list[Obj], kwargs: dict[str, Obj], depth: int, text: str | None = None
    ) -> Obj:
        """`func(*args, **kwargs)`: what a decorator (or decorator factory) returns."""
        if depth > MAX_DEPTH:
            return opaque("decorators nested too deeply to follow")
        if func.kind == "opaque":
            return func
        if func.kind == "external":
            return self._library(func.qualname, args, kwargs, text)
        if func.kind == "identity":  # `@dataclass(frozen=True)`
            return args[0] if len(args) == 1 else func
        if func.kind == "wraps":  # `functools.wraps(fn)(wrapper)`
            return self._wrap(args[0], func.wrapped) if len(args) == 1 and func.wrapped else func
        if func.kind == "cache":
            return self._cache(args[0]) if len(args) == 1 else opaque("lru_cache(...) called oddly")
        if func.kind == "keeping":
            return self._keeping(args[0]) if len(args) == 1 else opaque("validate_call(...) called oddly")
        if func.kind == "partial" and func.base is not None:
            return self.call(func.base, args, kwargs, depth + 1, text)
        if func.kind == "class" and func.cls is not None:
            return self._instance(func.cls, args)
        if func.kind == "instance" and func.call is not None:
            return self._returned(func.call, [func, *args], kwargs, depth + 1, func.scope)
        if func.kind == "function" and func.wrapped is None and isinstance(func.node, ast.FunctionDef):
            symbol = Defined(func.module, func.node, func.qualname, func.owner)  # type: ignore[arg-type]
            return self._returned(symbol, args, kwargs, depth + 1, func.scope)
        what = f"`{text}`" if text else f"a call of {func.qualname or func.kind}"
        return opaque(f"{what} returns something mcpdeps cannot follow")

    def _library(self, qualname: str, args: list[Obj], kwargs: dict[str, Obj], text: str | None) -> Obj:
        if qualname in IDENTITY:
            return args[0] if len(args) == 1 and not kwargs else Obj("identity")
        if qualname == "functools.wraps" and args:
            return Obj("wraps", wrapped=args[0])
        if qualname == "functools.update_wrapper" and len(args) >= 2:
            return self._wrap(args[0], args[1])
        if qualname in WRAPPING:
            if len(args) == 1 and args[0].kind not in ("external", "opaque") and not kwargs:
                return self._cache(args[0])
            return Obj("cache")  # `lru_cache(maxsize=...)`: the decorator it returns
        if qualname in KEEPING_ASYNC:
            if len(args) == 1 and args[0].kind not in ("external", "opaque") and not kwargs:
                return self._keeping(args[0])
            if not args:
                return Obj("keeping")  # `validate_call(validate_return=True)`: the decorator it returns
        if qualname in DEPRECATING and len(args) == 1:
            return Obj("keeping")  # `deprecated("use x")`: the decorator it returns
        if qualname == "functools.partial" and args:
            return Obj("partial", base=args[0], positional=len(args) - 1, keywords=tuple(kwargs))
        if qualname in PROPERTIES and len(args) == 1:
            return replace(args[0], kind="property")
        shown = text or qualname
        return opaque(
            f"decorator `{shown}` is not project code: mcpdeps cannot see what it returns "
            "(use `mcpdeps graph --live` to see what the SDK sees)"
        )

    def _wrap(self, wrapper: Obj, wrapped: Obj | None) -> Obj:
        """`wraps(wrapped)(wrapper)` / `update_wrapper(wrapper, wrapped)`."""
        if wrapped is None or wrapped.kind == "opaque":
            return wrapped or wrapper
        if wrapper.kind == "opaque":
            return wrapper
        return replace(wrapper, wrapped=wrapped, names_copied=True)

    def _cache(self, fn: Obj) -> Obj:
        """`lru_cache(fn)`: a sync C wrapper with `__wrapped__` and copied names (the SDK calls
        it without awaiting, even over an `async def`)."""
        return _library_wrapper(fn, is_async=False)

    def _keeping(self, fn: Obj) -> Obj:
        """`validate_call(fn)`: a `functools.wraps` wrapper, async when `fn` is."""
        return _library_wrapper(fn, is_async=fn.is_async)

    def _instance(self, cls: Defined, args: list[Obj]) -> Obj:
        """`Cls(fn)`: an instance; `update_wrapper(self, fn)` in `__init__` gives it `__wrapped__`."""
        method = self._method_of(cls, "__call__")  # type: ignore[operator]
        init = self._method_of(cls, "__init__")  # type: ignore[operator]
        call = method if isinstance(method, Defined) else None
        obj = Obj(
            "instance",
            cls.module,
            call.node if call is not None else None,
            cls.qualname,
            cls=cls,
            call=call,
            is_async=call is not None and isinstance(call.node, ast.AsyncFunctionDef),
        )
        if isinstance(init, Defined) and isinstance(init.node, ast.FunctionDef) and args:
            params = [a.arg for a in init.node.args.args]
            if len(params) >= 2 and _updates_self(init.node, params[0], params[1]):
                obj = replace(obj, wrapped=args[0], names_copied=True)
        return obj

    def _returned(
        self,
        fn: Defined,
        args: list[Obj],
        kwargs: dict[str, Obj],
        depth: int,
        outer: Scope | None,
    ) -> Obj:
        """What a call of project function `fn` returns, read from its `return` statements."""
        node = fn.node
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        if isinstance(node, ast.AsyncFunctionDef):
            return opaque(f"decorator {fn.qualname!r} is an async def: it returns a coroutine")
        scope = Scope(fn.module, node, fn.qualname, outer)
        env = _bind(node, args, kwargs)
        body = live_body(node.body, deciding(self.names, fn.module, scope))
        returns = [r for r in _returns(node) if r.value is not None]
        if body != node.body:  # `if not HAVE_RESOLVE: return fn`: the returns a call never runs left out
            live = {id(n) for stmt in body for n in ast.walk(stmt)}
            returns = [r for r in returns if id(r) in live]
        if not returns:
            return opaque(f"{fn.qualname!r} returns None", "invalid")
        results = [self.expr(fn.module, r.value, scope, env, depth + 1) for r in returns]  # type: ignore[arg-type]
        first = results[0]
        if any(r != first for r in results[1:]):
            branch = _branch_for(results)
            if branch is None:
                return opaque(f"{fn.qualname!r} returns different things depending on run-time values")
            first = branch
        wrapped = _update_wrapper_target(node, env)
        if wrapped is not None and first.kind == "function" and first.wrapped is None:
            return self._wrap(first, wrapped)
        written = (
            with_written(first, node, body, (self.names, fn.module, scope), returns)
            if first.kind == "function"
            else None
        )
        return opaque(f"decorator {written}") if isinstance(written, str) else written or first


def _branch_for(results: list[Obj]) -> Obj | None:
    """`if iscoroutinefunction(fn): return async_wrapper` / `else: return wrapper`: each branch
    returns a wrapper of the same function, differing in async-ness only. The SDK reads the
    signature and hints through `__wrapped__` either way; the branch that runs is the one whose
    async-ness is the wrapped function's (what such a test selects). None: no such branch."""
    wrapped = results[0].wrapped
    if wrapped is None or any(r.kind != "function" or r.wrapped != wrapped for r in results):
        return None
    inner = wrapped.innermost
    return next((r for r in results if r.is_async == inner.is_async), None)


def _def_scope(symbol: Defined, module: ParsedModule, scope: Scope | None) -> Scope | None:
    """The scope a def is written in: its enclosing function's, or None at module level."""
    if symbol.owner is not None or "<locals>" not in symbol.qualname:
        return None
    cur = scope
    prefix = symbol.qualname.rpartition(".<locals>.")[0]
    while cur is not None and cur.qualname != prefix:
        cur = cur.parent
    return cur


def _bind(node: ast.FunctionDef, args: list[Obj], kwargs: dict[str, Obj]) -> dict[str, Obj]:
    """Parameter name -> argument, for the arguments that are callables the model follows."""
    a = node.args
    positional = [p.arg for p in [*a.posonlyargs, *a.args]]
    env = dict(zip(positional, args, strict=False))
    names = {p.arg for p in [*a.posonlyargs, *a.args, *a.kwonlyargs]}
    env.update((k, v) for k, v in kwargs.items() if k in names)
    return env


def _returns(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Return]:
    return returns_of(node)


def _is_update_wrapper(call: ast.AST) -> bool:
    if not isinstance(call, ast.Call):
        return False
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name == "update_wrapper" and len(call.args) >= 2


def _update_wrapper_target(node: ast.FunctionDef, env: dict[str, Obj]) -> Obj | None:
    """`functools.update_wrapper(wrapper, fn)` as a statement of the decorator's body."""
    for stmt in node.body:
        value = stmt.value if isinstance(stmt, ast.Expr) else None
        if isinstance(value, ast.Call) and _is_update_wrapper(value) and isinstance(value.args[1], ast.Name):
            return env.get(value.args[1].id)
    return None


def _updates_self(init: ast.FunctionDef, self_name: str, fn_name: str) -> bool:
    """`functools.update_wrapper(self, fn)` in a class decorator's `__init__`."""
    for stmt in ast.walk(init):
        if (
            _is_update_wrapper(stmt)
            and isinstance(stmt.args[0], ast.Name)  # type: ignore[attr-defined]
            and stmt.args[0].id == self_name  # type: ignore[attr-defined]
        ):
            return True
    return False


def _library_wrapper(fn: Obj, is_async: bool) -> Obj:
    """What a library decorator copying `fn`'s names and `__wrapped__` returns; an opaque `fn`
    stays opaque."""
    if fn.kind == "opaque":
        return fn
    return Obj("function", wrapped=fn, names_copied=True, is_async=is_async, decorated=True)
