"""A decorator factory's result applied by a call, not with `@`: `audited(mcp, "x")(fn)`.

Published servers wrap their tools (auditing, logging) in a decorator that registers what it
makes, and apply it by hand, often to bound methods in a class's `__init__`:
`audited_tool(mcp, "create_job", title=...)(self.create_job)`. Applied to a function the call
names (`create_job`, `self.create_job`, an imported one), that function is registered
(`by_hand`), under the name the factory is passed, where the decorator registers it or a
`functools.wraps` wrapper of it, whose signature the SDK reads through `__wrapped__`
(`wraps_its_parameter`). Any other wrapper, or anything else applied, leaves the wrapper as
written a tool (`applied_unread`): its own `*args, **kwargs` are what the SDK publishes.
"""

from __future__ import annotations

import ast

from .call_sites import CallSites
from .model import Arm
from .registered_names import factory_argument
from .registration_site import Registration
from .signatures import function_params
from .source import ParsedModule
from .symbols import External, Names, Scope


def by_hand(names: Names, call_sites: CallSites, reg: Registration) -> list[Registration]:
    """`audited(mcp, "x")(self.create_job)`: the decorator `reg` is made in, applied by a call
    to a function it names (`CallSites.applied_by_hand`): that function is registered, under
    the name the factory is passed, when the call runs."""
    assert reg.scope is not None and isinstance(reg.scope.function, ast.FunctionDef)
    return [
        applied_to(names, reg, (module, call, scope), reg.scope.parent, reg.arms)
        for module, call, scope in call_sites.applied_by_hand(reg.scope.function)
    ]


def applied_to(
    names: Names,
    reg: Registration,
    site: tuple[ParsedModule, ast.Call, Scope | None],
    factory: Scope | None,
    arms: tuple[Arm, ...] = (),
) -> Registration:
    """What `reg` (in the decorator a factory returns) registers where a call of the factory's
    result applies it (`site`: `audited(mcp, "x")(create_job)`, `default(mcp)(t)`): the function
    the call names, under the name the factory call passes, landed when that call runs."""
    module, call, scope = site
    made = call.func if isinstance(call.func, ast.Call) else None
    return Registration(
        reg.server,
        reg.kind,
        call.args[0],
        module,
        scope,
        reg.name or (factory_argument(names, reg, made, factory) if made is not None else None),
        module.span(call),
        "applied",
        arms=arms,
        landed_at=made,
    )


def applied_unread(names: Names, call_sites: CallSites, reg: Registration) -> bool:
    """Whether the decorator making the wrapper `reg` registers is also applied by hand to
    what is not read (`CallSites.applied_unread`), or to a function named there while the
    wrapper's signature is not that function's: the wrapper as written stays a tool."""
    fn = reg.scope.function if reg.scope is not None else None
    if not isinstance(fn, ast.FunctionDef):
        return False
    if call_sites.applied_unread(fn):
        return True
    return bool(call_sites.applied_by_hand(fn)) and not wraps_its_parameter(names, reg)


def wraps_its_parameter(names: Names, reg: Registration) -> bool:
    """Whether the function `reg` registers (`mcp.tool(name=name)(wrapper)` in `def
    decorator(func):`) is a def of the decorator's made with `@functools.wraps(func)`, `func`
    a parameter of the decorator: its signature is then the wrapped function's."""
    fn = reg.scope.function if reg.scope is not None else None
    if not isinstance(fn, ast.FunctionDef) or not isinstance(reg.fn, ast.Name):
        return False
    params = {a.arg for a, *_ in function_params(fn)}
    wrapper = next(
        (s for s in fn.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == reg.fn.id),
        None,
    )
    for written in wrapper.decorator_list if wrapper is not None else []:
        if (
            not isinstance(written, ast.Call)
            or len(written.args) != 1
            or not isinstance(written.args[0], ast.Name)
        ):
            continue
        symbol = names.resolve(reg.module, written.func, reg.scope)
        symbol = names.follow(symbol) if symbol is not None else None
        if (
            isinstance(symbol, External)
            and symbol.qualname == "functools.wraps"
            and written.args[0].id in params
        ):
            return True
    return False
