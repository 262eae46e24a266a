"""The name a tool takes from the call that makes its registration run, when the site names it
by a parameter: `def register_tool(self, name, handler): server.add_tool(handler, name=name)`
called `register_tool("x", fn)`, `@named("beta")` over a factory whose parameter is the
registration's `name=`, `@ctx.tool("beta")` where the factory hands on `*args, **kwargs`.

Read by `reach.py` as it lands a helper's registration on what each call passes, through the
loops around the call as the function is (`for n, fn in (("a", u), ("b", u)): add(mcp, fn,
n)` registers `a`, then `b`), and `f"{prefix}_{fn.__name__}"` with what the call passes. A
name given but not read stays computed (`Tool.computed_name`: compared with no other): the
function's own name stands for the tool's only when no name is given, never as a guess.
`landed_on_def`: a helper's registration landing on each def its decorator is applied to,
named by what the decorator's call passes (`@named("beta")`, `@tool("lookup")` of a registry).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .passed_loops import argument
from .registration_site import Registration
from .servers import ParamServer
from .signatures import function_params
from .slot_fillers import Filling
from .source import ParsedModule
from .symbols import Defined, Names, Param, Scope, Value

if TYPE_CHECKING:
    from .call_sites import Application
    from .model import Span

Named = tuple[ParsedModule, ast.expr | None, Scope | None]
"""A name expression as a call passes it, with the module and scope to read it in."""


def name_passed(names: Names, reg: Registration, call: ast.Call, bound: bool) -> ast.expr | None:
    """`def register_tool(self, name, handler): server.add_tool(handler, name=name)`: what `call`
    passes for that parameter, or its default when it passes nothing (`None` when it has none:
    the SDK then names the tool after its function). None when the site's name is no parameter
    of its function."""
    param = _name_parameter(names, reg)
    if param is None:
        return None
    assert reg.scope is not None and isinstance(reg.scope.function, ast.FunctionDef | ast.AsyncFunctionDef)
    params = function_params(reg.scope.function)
    index = [a for a, *_ in params].index(param)
    value = argument(call, index - bound, param.arg)
    if value is not None:
        return value
    default = params[index][3]
    if default is None or isinstance(default, ast.Constant):
        return default or ast.Constant(None)
    # Read where the call is, not where the default is written: `f"{default}"`, unread.
    return ast.JoinedStr([ast.FormattedValue(default, -1, None)])


def landed_name(
    names: Names, reg: Registration, call: ast.Call, bound: bool, value: Named, named: Named
) -> tuple[str | None, ast.expr | None]:
    """The `name` and `name_node` of `reg` landed on what `call` passes (`value`, the function
    for one pass of the loops around the call, and `named`, what it passes for the site's name
    parameter on that pass, `name_passed` read through the same loops).

    A name read exactly is the tool's; one given but not read (a loop variable of a loop
    over values not listed, `f"{prefix}_x"` with a computed prefix) keeps its expression, so
    the tool's name counts as computed (`Tool.computed_name`) and is compared with no other:
    the function's own name stands for the tool's only when no name is given at all."""
    if reg.name is not None:
        return reg.name, reg.name_node
    if _name_parameter(names, reg) is not None:
        return _text(names, named)
    node = _bound_once(names, reg, reg.name_node)
    if node is None or (isinstance(node, ast.Constant) and node.value is None) or _registered_name(reg, node):
        return None, None  # named after its function (`name=fn.__name__` too)
    if isinstance(node, ast.JoinedStr):  # `name=f"{prefix}_{fn.__name__}"`
        return _joined(names, reg, node, call, bound, value), node
    return None, node


def named_by_callers(
    names: Names,
    reg: Registration,
    passed_for: Callable[[ParamServer], Sequence[Filling]],
    elsewhere: Callable[[Filling], bool],
) -> str | None:
    """`@server.tool(name=f"{prefix}search")` in `def register_kb_search(server, prefix="kb_")`
    (a published knowledge-base server's registrars): the name the calls handing the helper its
    server (`passed_for`, `Reach.passed_for`) give the tool, each passing `prefix` or leaving
    its default; the calls handing it another server (`elsewhere`: `register(other,
    prefix="x_")` names the tool on `other`) left out, unless that leaves none. None when they
    give different names, or one is not read (the name stays computed): a plain function only
    (no bound `self` to count), its own server parameter the one registered on. (Each server
    read with its own calls, the name a file linted alone gives is the one `lint .` does.)"""
    node, scope = reg.name_node, reg.scope
    if reg.name is not None or not isinstance(node, ast.JoinedStr) or scope is None:
        return None
    fn = scope.function
    if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) or scope.parent is not None:
        return None  # a method or a nested function: which parameter a call fills is not counted here
    if not isinstance(reg.server, ParamServer) or reg.server.function is not fn:
        return None
    fillings = passed_for(reg.server)
    calls = [call for _, call, *_ in [f for f in fillings if not elsewhere(f)] or fillings]
    if any(isinstance(a, ast.Starred) for c in calls for a in c.args) or any(
        k.arg is None for c in calls for k in c.keywords
    ):
        return None  # `register(mcp, **options)`: the prefix may be in them
    given = {_joined(names, reg, node, call, False, (reg.module, None, scope)) for call in calls}
    return given.pop() if len(given) == 1 else None


def _bound_once(names: Names, reg: Registration, node: ast.expr | None) -> ast.expr | None:
    """`prefixed = f"falcon_{name}"`, then `server.add_tool(method, name=prefixed)` (a published
    module base class's helper): the f-string a name of the site's function is bound to, once,
    read as if written in the call; any other name as it is."""
    if not isinstance(node, ast.Name) or reg.scope is None:
        return node
    stores = [
        n
        for n in ast.walk(reg.scope.function)
        if isinstance(n, ast.Name) and n.id == node.id and isinstance(n.ctx, ast.Store)
    ]
    symbol = names.lookup(reg.module, node.id, reg.scope) if len(stores) == 1 else None
    if isinstance(symbol, Value) and symbol.scope is reg.scope and isinstance(symbol.node, ast.JoinedStr):
        return symbol.node
    return node


def _name_parameter(names: Names, reg: Registration) -> ast.arg | None:
    """The parameter of the site's function its `name=` is (`add_tool(fn, name=name)`)."""
    node = reg.name_node
    if not isinstance(node, ast.Name) or reg.scope is None:
        return None
    symbol = names.lookup(reg.module, node.id, reg.scope)
    if not isinstance(symbol, Param) or symbol.function is not reg.scope.function:
        return None
    return symbol.node


def _text(names: Names, named: Named) -> tuple[str | None, ast.expr | None]:
    """A passed name: a string written out (or a name bound to one, as the scan reads
    `name=LOOKUP`); `None` names the tool after its function; anything else is computed."""
    module, node, scope = named
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return None, None
    text = node
    if isinstance(node, ast.Name):
        symbol = names.lookup(module, node.id, scope)
        text = symbol.node if isinstance(symbol, Value) else node
    return (text.value if isinstance(text, ast.Constant) and isinstance(text.value, str) else None), node


def _registered_name(reg: Registration, node: ast.expr) -> bool:
    """Whether `node` is `fn.__name__` of the parameter `reg` registers: the function's own name."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "__name__"
        and isinstance(node.value, ast.Name)
        and isinstance(reg.fn, ast.Name)
        and node.value.id == reg.fn.id
    )


def _joined(
    names: Names, reg: Registration, node: ast.JoinedStr, call: ast.Call, bound: bool, value: Named
) -> str | None:
    """`f"{prefix}_{fn.__name__}"` read with what `call` passes: a string written out for
    `prefix`, the name of the def `value` is for `fn`; None when any part is not read so."""
    assert reg.scope is not None and isinstance(reg.scope.function, ast.FunctionDef | ast.AsyncFunctionDef)
    params = function_params(reg.scope.function)
    text = ""
    for part in node.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            text += part.value
            continue
        if not isinstance(part, ast.FormattedValue) or part.format_spec is not None or part.conversion != -1:
            return None
        if _registered_name(reg, part.value):
            module, fn, scope = value
            symbol = names.lookup(module, fn.id, scope) if isinstance(fn, ast.Name) else None
            defined = names.follow(symbol) if symbol is not None else None
            if not isinstance(defined, Defined) or not isinstance(
                defined.node, ast.FunctionDef | ast.AsyncFunctionDef
            ):
                return None
            text += defined.node.name
            continue
        symbol = (
            names.lookup(reg.module, part.value.id, reg.scope) if isinstance(part.value, ast.Name) else None
        )
        passed = next(
            (
                argument(call, i - bound, a.arg) or default
                for i, (a, _, _, default) in enumerate(params)
                if isinstance(symbol, Param) and symbol.node is a
            ),
            None,
        )
        if not (isinstance(passed, ast.Constant) and isinstance(passed.value, str)):
            return None
        text += passed.value
    return text


def factory_argument(names: Names, reg: Registration, written: ast.expr, factory: Scope | None) -> str | None:
    """`@named("beta")` where the factory's parameter is the `name=` of the registration
    (`add_tool` in the decorator it returns, or the `server.tool(name=...)` it returns);
    `@ctx.tool("beta")` / `@ctx.tool(name="beta")` where the factory hands all it is passed
    on (`return self._mcp.tool(*args, **kwargs)`)."""
    node = reg.name_node
    if factory is None or not isinstance(written, ast.Call):
        return None
    if (
        reg.registrar is not None
        and isinstance(factory.function, ast.FunctionDef | ast.AsyncFunctionDef)
        and not isinstance(node, ast.Name)  # `tool(name=name, **extra)`: the name is the parameter's
    ):
        star, double = _forwarding(reg.registrar, factory.function)
        if star or double:
            value = written.args[0] if star and written.args else None
            if value is None and double:
                value = next((k.value for k in written.keywords if k.arg == "name"), None)
            return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None
    if not isinstance(node, ast.Name):
        return None
    symbol = names.lookup(reg.module, node.id, reg.scope)
    if not isinstance(symbol, Param) or symbol.function is not factory.function:
        return None
    params = [a.arg for a, *_ in function_params(factory.function)]
    bound = isinstance(written.func, ast.Attribute) and params[:1] in (["self"], ["cls"])
    index = params.index(symbol.node.arg) - bound
    value = (
        written.args[index]
        if index < len(written.args)
        else next((k.value for k in written.keywords if k.arg == symbol.node.arg), None)
    )
    return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None


def _forwarding(call: ast.Call, factory: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[bool, bool]:
    """Whether `call` passes on the factory's `*args` first (with no other parameter before
    them but `self`/`cls`), and its `**kwargs`: then the tool's name is what callers pass."""
    args = factory.args
    own = [a.arg for a in [*args.posonlyargs, *args.args]]
    star = (
        args.vararg is not None
        and own in ([], ["self"], ["cls"])
        and bool(call.args)
        and isinstance(call.args[0], ast.Starred)
        and isinstance(call.args[0].value, ast.Name)
        and call.args[0].value.id == args.vararg.arg
    )
    double = args.kwarg is not None and any(
        k.arg is None and isinstance(k.value, ast.Name) and k.value.id == args.kwarg.arg
        for k in call.keywords
    )
    return star, double


def landed_on_def(
    names: Names,
    reg: Registration,
    applied: Application,
    factory: Scope | None,
    span: Span,
    named_by: ast.expr | None = None,
) -> Registration:
    """`reg` landing on the def a decorator is applied to (`applied`: where, the def, the
    decorator as written, its scope), named as written or by what `factory` is passed
    (in `named_by`, the factory's call, when not the decorator itself)."""
    module, deco_def, written, scope = applied
    name = reg.name or factory_argument(names, reg, named_by or written, factory)
    return Registration(
        reg.server,
        reg.kind,
        deco_def,
        module,
        scope,
        name,
        span,
        "applied",
        decorator=written,
        # a registry's key not read (`TOOLS[key.upper()] = fn`): a name, computed
        name_node=reg.name_node if reg.collector is not None and name is None else None,
        arms=reg.arms,
        # `@registered(mcp, "list_hosts")`: a factory handed the server registers on what
        # this call passes, once (not once per call of the factory anywhere)
        landed_at=written if isinstance(written, ast.Call) and reg.collector is None else None,
        collector=reg.collector,
    )
