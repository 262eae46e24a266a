"""The name a tool takes from the call that makes its registration run, when the site names it
by a parameter: `def register_tool(self, name, handler): server.add_tool(handler, name=name)`
called `register_tool("x", fn)`, `@named("beta")` over a factory whose parameter is the
registration's `name=`, `@ctx.tool("beta")` where the factory hands on `*args, **kwargs`.

Read by `reach.py` as it lands a helper's registration on what each call passes.
"""

from __future__ import annotations

import ast

from .passed_loops import argument
from .registration_site import Registration
from .signatures import function_params
from .symbols import Names, Param, Scope


def passed_name(
    names: Names, reg: Registration, call: ast.Call, params: list[ast.arg], bound: bool
) -> str | None:
    """`def register_tool(self, name, handler): server.add_tool(handler, name=name)`: the name
    each call passes."""
    node = reg.name_node
    if not isinstance(node, ast.Name) or reg.scope is None:
        return None
    symbol = names.lookup(reg.module, node.id, reg.scope)
    if not isinstance(symbol, Param) or symbol.function is not reg.scope.function:
        return None
    value = argument(call, params.index(symbol.node) - bound, symbol.node.arg)
    return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None


def factory_argument(names: Names, reg: Registration, written: ast.expr, factory: Scope | None) -> str | None:
    """`@named("beta")` where the factory's parameter is the `name=` of the registration
    (`add_tool` in the decorator it returns, or the `server.tool(name=...)` it returns);
    `@ctx.tool("beta")` / `@ctx.tool(name="beta")` where the factory hands all it is passed
    on (`return self._mcp.tool(*args, **kwargs)`)."""
    node = reg.name_node
    if factory is None or not isinstance(written, ast.Call):
        return None
    if reg.registrar is not None and isinstance(factory.function, ast.FunctionDef | ast.AsyncFunctionDef):
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
