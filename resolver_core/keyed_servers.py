"""Servers read out of a mapping: `SERVERS["admin"]`, `kwargs["server"]`.

Some projects keep several servers in a module-level dict (`SERVERS = {"public":
MCPServer("public"), "admin": MCPServer("admin")}`) and register through the subscription
(`@SERVERS["admin"].tool()`); some helpers take their settings as `**kwargs` and read the
server out of them (`server = kwargs["server"]`, `kwargs.get("server")`). Python reads the
entry the literal holds under the key, or the argument a call passes by that name (`register(
server=mcp)`), so these are the server written there, or a slot its callers fill, as a
parameter named so would be (`servers.ParamServer`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .model import Server
from .signatures import function_params
from .source import ParsedModule
from .symbols import Element, Names, Param, Scope, Value

if TYPE_CHECKING:
    from .servers import ParamServer, Servers


def keyed(
    servers: Servers, module: ParsedModule, expr: ast.expr, scope: Scope | None
) -> Server | ParamServer | None:
    """The server `expr` reads out of a mapping under a constant key, if it reads one: the entry
    of a dict literal bound once (one server however often it is read), or the slot of a
    `**kwargs` parameter that each call's keyword of that name fills."""
    from .servers import ParamServer  # (servers imports this module)

    read = _keyed(expr)
    if read is None:
        return None
    mapping, written_key = read
    key = _constant(servers.names, module, written_key, scope)
    if key is None:
        return None
    symbol = servers.names.resolve(module, mapping, scope)
    symbol = servers.names.follow(symbol) if symbol is not None else None
    if isinstance(symbol, Param) and isinstance(symbol.function, ast.FunctionDef | ast.AsyncFunctionDef):
        fn = symbol.function
        if fn.args.kwarg is not symbol.node or not isinstance(key.value, str):
            return None
        if _changed(fn, symbol.node.arg, _STORING):  # `kwargs["server"] = other`: not the caller's
            return None
        index = [a for a, *_ in function_params(fn)].index(symbol.node)
        return ParamServer(symbol.module, fn, index, key.value, annotated=False)
    if not isinstance(symbol, Value) or not isinstance(symbol.node, ast.Dict):
        return None
    for written, value in zip(symbol.node.keys, symbol.node.values, strict=True):
        held = _constant(servers.names, symbol.module, written, symbol.scope) if written is not None else None
        if held is not None and held.value == key.value:
            origin = servers.origin(symbol.module, value, symbol.scope, None)
            if origin is False:
                return None
            return servers.server(symbol.module, f"{symbol.name}[{key.value!r}]", value, origin, symbol.scope)
    return None


def by_keyword(ps: ParamServer) -> bool:
    """Whether only a keyword argument fills `ps`: a key of the `**kwargs` it is read out of
    (the position of `**kwargs` is no argument's: `f(a, *rest, **kwargs)`)."""
    fn = ps.function
    if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) or fn.args.kwarg is None:
        return False
    params = function_params(fn)
    return ps.index < len(params) and params[ps.index][0] is fn.args.kwarg


def _keyed(expr: ast.AST) -> tuple[ast.expr, ast.expr] | None:
    """`d["k"]`, `d.get("k", ...)` or `d.pop("k", ...)` (or the key a name: `d[KEY]`): the
    mapping read and its key."""
    if isinstance(expr, Element):
        return None  # a listed value of another module's collection, read where it is written
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant | ast.Name):
        return expr.value, expr.slice
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in ("get", "pop")
        and expr.args
        and isinstance(expr.args[0], ast.Constant | ast.Name)
    ):
        return expr.func.value, expr.args[0]
    return None


def _constant(names: Names, module: ParsedModule, key: ast.expr, scope: Scope | None) -> ast.Constant | None:
    """The constant a key is: written out (`"admin"`), or a name bound to one (`KEY = "admin"`,
    then `{KEY: MCPServer("admin")}` or `SERVERS[KEY]`: Python hashes the value, not the name)."""
    if isinstance(key, ast.Constant):
        return key
    if not isinstance(key, ast.Name):
        return None
    symbol = names.resolve(module, key, scope)
    symbol = names.follow(symbol) if symbol is not None else None
    return symbol.node if isinstance(symbol, Value) and isinstance(symbol.node, ast.Constant) else None


def spread_entry(
    names: Names, module: ParsedModule, call: ast.Call, scope: Scope | None, name: str
) -> ast.expr | None:
    """`register(**opts)` where `opts = {"server": mcp, ...}`: the value the dict literal
    holds under the parameter's name (what Python passes for it)."""
    for keyword in call.keywords:
        if keyword.arg is not None:
            continue
        spread = names.resolve(module, keyword.value, scope)
        spread = names.follow(spread) if spread is not None else None
        held = spread.node if isinstance(spread, Value) else keyword.value
        if isinstance(spread, Value):  # `opts["server"] = other` before the call: not the literal's
            where: ast.AST | None = spread.scope.function if spread.scope else spread.module.tree
            if where is not None and _changed(where, spread.name, _CHANGING):
                continue
        if isinstance(held, ast.Dict):
            for key, value in zip(held.keys, held.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == name:
                    return value
    return None


_STORING = frozenset({"update", "setdefault", "clear", "__setitem__", "__delitem__"})
"""The methods of a dict that store or drop entries (`pop` reads one as it drops it)."""
_CHANGING = _STORING | {"pop", "popitem"}
"""The methods of a dict that change what it holds."""


def _changed(where: ast.AST, name: str, methods: frozenset[str]) -> bool:
    """Whether the dict `name` may hold something else than was passed or written for it
    (in `where`, the function or module binding it): an entry stored or deleted
    (`opts["server"] = b`, `del kwargs["server"]`) or one of `methods` called on it."""
    for node in ast.walk(where):
        stored = isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load)
        called = isinstance(node, ast.Attribute) and node.attr in methods
        if (
            (stored or called)
            and isinstance(target := getattr(node, "value", None), ast.Name)
            and target.id == name
        ):
            return True
    return False
