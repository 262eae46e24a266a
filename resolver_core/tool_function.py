"""The function behind a registration: the object `@server.tool()` or `add_tool(fn)` hands
the SDK, whose parameters the builder classifies (`builder.py`).

A registration names a def, a lambda, a bound method, an alias or a call (`add_tool(deco(g))`);
what the SDK reads is the object Python built from it once the decorators below the
registration ran (`decorators.py`): its signature through `__wrapped__`, its name and its own
async-ness. A decorator that cannot be followed leaves the function as written, with the reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from .annotation_writes import Written
from .callables import Targets
from .decorated import Obj, replaced
from .records import slotted
from .registration_site import Registration
from .registrations import Scanner
from .signatures import class_scope
from .source import ParsedModule
from .symbols import Defined, Names, Scope, Value, lambda_qualname
from .written_decorators import is_registration, written_chain


@slotted
class ToolFunction:
    """The function behind a registration, and how many leading parameters binding removes."""

    module: ParsedModule
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
    qualname: str
    scope: Scope | None
    skip: int = 0
    is_async: bool | None = None
    """The registered object's own async-ness, when decorators decide it."""
    decorators: tuple[str, ...] = ()
    opaque: str | None = None
    """Why a decorator on it cannot be followed (the function as written is assumed)."""
    annotations: tuple[Written, ...] = ()
    """Annotations a decorator wrote into it: they replace the ones its def declares."""


def tool_function(reg: Registration, names: Names, targets: Targets, scanner: Scanner) -> ToolFunction | None:
    """The function a registration names (a def, a lambda, a bound method, an alias),
    after the decorators Python applied before the registration saw it."""
    fn = reg.fn
    if (
        reg.registrar is not None
        and isinstance(fn, ast.Name | ast.Attribute)
        and targets.decorators.overridden(reg.module, reg.registrar, reg.scope)
    ):  # `mcp.tool(name="t")(t)` where the server's class overrides `tool`
        return _decorated_tool(targets.decorators.through(reg.module, reg.registrar, fn, reg.scope), None, ())
    if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
        qual = reg.qualname or (f"{reg.scope.qualname}.<locals>.{fn.name}" if reg.scope else fn.name)
        found = ToolFunction(reg.module, fn, qual, reg.scope)
        through = reg.decorator if reg.decorator is not None and _through(reg, targets) else None
        below = (
            # the decorator itself too when what it returns is what is registered
            fn.decorator_list[fn.decorator_list.index(reg.decorator) + (through is None) :]
            if (reg.decorator in fn.decorator_list)
            else []
        )
        found.decorators = tuple(
            written_chain(
                reg.module.segment,
                fn,
                for_tool=True,
                registrar=lambda d: (
                    d is reg.decorator or is_registration(scanner.aliases.alias_of(reg.module, d, reg.scope))
                ),
            )
        )
        if not below:
            return found
        obj = targets.decorators.below(Defined(reg.module, fn, qual), reg.scope, below, through)
        chain = found.decorators
        return _decorated_tool(obj, found, chain)
    if isinstance(fn, ast.Lambda):
        return ToolFunction(reg.module, fn, lambda_qualname(reg.scope), reg.scope)
    if isinstance(fn, ast.Attribute):
        bound = targets.bound_method(reg.module, fn, reg.scope)
        if bound is not None and isinstance(bound.node, ast.FunctionDef | ast.AsyncFunctionDef):
            return ToolFunction(
                bound.module,
                bound.node,
                bound.qualname,
                bound.scope,
                bound.skip,
                bound.is_async,
                bound.decorators,
            )
    if isinstance(fn, ast.Call):  # `mcp.add_tool(deco(g))`
        obj = targets.decorators.expr(reg.module, fn, reg.scope, {}, 0)
        return _decorated_tool(obj, None, ())
    symbol = names.resolve(reg.module, fn, reg.scope)
    symbol = names.follow(symbol) if symbol is not None else None
    if isinstance(symbol, Defined) and isinstance(symbol.node, ast.FunctionDef | ast.AsyncFunctionDef):
        found = ToolFunction(symbol.module, symbol.node, symbol.qualname, symbol.scope)
        if not symbol.node.decorator_list:
            return found
        obj = targets.decorators.applied(symbol, symbol.scope)
        chain = (
            ()
            if replaced(obj, symbol.node)
            else tuple(written_chain(symbol.module.segment, symbol.node, for_tool=False))
        )
        decorated = _decorated_tool(obj, found, chain)
        if decorated is not None and symbol.owner is not None and obj.binding == "classmethod":
            decorated.skip = 1  # `Kit.make`: reading it on the class binds `cls`, as a bound method's `self`
        return decorated
    if isinstance(symbol, Defined) and isinstance(symbol.node, ast.Lambda):
        return ToolFunction(symbol.module, symbol.node, symbol.qualname, symbol.scope)
    if isinstance(symbol, Value) and isinstance(symbol.node, ast.Lambda):
        return ToolFunction(symbol.module, symbol.node, lambda_qualname(symbol.scope), symbol.scope)
    if isinstance(symbol, Value) and isinstance(symbol.node, ast.Call):  # `t = deco(g)`
        obj = targets.decorators.value(symbol)
        return _decorated_tool(obj, None, ())
    return None


def _through(reg: Registration, targets: Targets) -> bool:
    """Whether what the registering decorator returns for the def is what the SDK registers: a
    decorator wrapping it (`Registration.through_decorator`), or the SDK's decorator overridden
    by the server's class (`Decorators.overridden`)."""
    if reg.through_decorator:
        return True
    return (
        reg.form == "decorator"
        and reg.decorator is not None
        and targets.decorators.overridden(reg.module, reg.decorator, reg.scope)
    )


def _decorated_tool(obj: Obj, written: ToolFunction | None, chain: tuple[str, ...]) -> ToolFunction | None:
    """The registered object: its signature (through `__wrapped__`), name and async-ness."""
    inner, named = obj.innermost, obj.named
    if obj.kind == "opaque" or inner.module is None or inner.kind not in ("function", "lambda", "instance"):
        if written is None:
            return None
        written.opaque = obj.opaque or "a decorator on it returns something mcpdeps cannot follow"
        written.decorators = chain
        return written
    node = inner.call.node if inner.kind == "instance" and inner.call is not None else inner.node
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return written
    qualname = named.cls.qualname if named.kind == "instance" and named.cls else named.qualname
    scope = inner.scope
    if inner.kind == "instance" and inner.call is not None:
        scope = class_scope(inner.call.owner)
    return ToolFunction(
        inner.module,
        node,
        qualname,
        scope,
        1 if inner.kind == "instance" else 0,
        obj.is_async,
        chain,
        annotations=inner.annotations,
    )


def landed_twice(
    found: Iterable[Registration], expanded: Iterable[Registration], targets: Targets
) -> set[int]:
    """The ids of the registrations `expanded` that land a def through the server class's
    override of `tool` which registers it itself (`self.add_tool(fn, ...)` in the decorator it
    returns), where a registration `found` decorates that def with the override
    (`@mcp.tool()`, read through it: `Decorators.override`): one registration of the SDK's,
    read where it is written, not two."""
    overrides: set[int] = set()
    for reg in found:
        scope = reg.scope
        while scope is not None:
            if (
                isinstance(scope.function, ast.FunctionDef | ast.AsyncFunctionDef)
                and scope.function.name == "tool"
            ):
                overrides.add(id(scope.function))
            scope = scope.parent
    if not overrides:
        return set()
    outer: set[int] = set()
    for reg in found:
        if reg.form == "decorator" and reg.decorator is not None:
            method = targets.decorators.override(reg.module, reg.decorator, reg.scope)
            if method is not None and id(method.node) in overrides:
                outer.add(id(reg.decorator))
    return {id(reg) for reg in expanded if reg.decorator is not None and id(reg.decorator) in outer}
