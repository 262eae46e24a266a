"""Servers written as calls: `register(MCPServer("x"))`, `@get_mcp().tool()`.

Published servers often never bind the server where it is used. A getter hands out one
server (`def get_mcp(): return _mcp`, a `@lru_cache` function returning `MCPServer(...)`, or
`global _mcp` set on first call), and tool modules decorate with its result directly; an
entry point builds the server in the argument of the helper that registers on it. Python
runs those calls, so the SDK registers (and refuses) there: a call stands for a server when
its every `return` is one.

What a call of a project function stands for (`Made`, found once per function):
- the one server each call returns: a module-level server, the `global` one the function
  sets, or what a cached function (`functools.cache`/`lru_cache`) makes, named after the
  function (`get_server()`), as `Servers._itself` names a subclass's instances;
- a new server at each call (a factory returning `MCPServer(...)`, or annotated `->
  MCPServer`): the server made where the call is written, as `MCPServer(...)` written there
  is. Two such calls are two servers (two `register(MCPServer("x"))` do not share their
  tools); each is named by its file and position, so every run of the file (and every slice
  of a parallel run) gives it the same identity (`per_file.server_key`).

A factory that binds its own server, registers on it and returns it (`def build(): server =
MCPServer("x"); @server.tool() ...; return server`) makes that server at each call, tools
included: what its callers register on the result (`mcp = build()`, then `@mcp.tool()`) meets
the factory's tools on one server, as in the SDK. So the server each call makes (`made_here`)
is shown as the factory's local one (its variable and `MCPServer(...)`, as `graph --live`
finds it) and told apart by the call (`Server.made_at`); the factory's registrations land on
it (`factory_results.py`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, TypeAlias

from .library_decorators import MEMOIZING
from .model import Server
from .signatures import own_nodes, returns_of
from .source import ParsedModule
from .subclass_servers import instantiated, made_instance
from .symbols import Defined, Scope, Value

if TYPE_CHECKING:
    from .servers import Servers

Made: TypeAlias = "Server | ast.Call | bool | None"
"""The server every call returns; or a new one at each call (the `MCPServer(...)` call naming
it, or True when only an annotation says so); or None: no server known."""


def called(servers: Servers, module: ParsedModule, call: ast.Call, scope: Scope | None) -> Server | None:
    """The server a call written where a server is expected stands for (`MCPServer("x")` in
    an argument, `get_mcp()` before `.tool()`), if any."""
    found: Made = call if servers.is_call(module, call, scope) else made(servers, module, call, scope)
    if isinstance(found, Server):
        return found
    if found is None or found is False:
        return None
    here = made_here(servers, module, call, scope)  # (a factory's, or a subclass's instance)
    # `return MCPServer("x", tools=[...])`: the factory's own server, as a local one is.
    local = scope if found is call and _returned_with_tools(scope, call) else None
    return here or servers.server(module, written_at(module, call), call, found, local)


def _returned_with_tools(scope: Scope | None, call: ast.Call) -> bool:
    """Whether `call` (`MCPServer(..., tools=[...])`) is what a plain function `scope` returns:
    a factory whose every call makes a server holding those tools (`factory_results.py`)."""
    fn = scope.function if scope is not None else None
    return (
        isinstance(fn, ast.FunctionDef)
        and not fn.decorator_list
        and any(k.arg == "tools" for k in call.keywords)
        and any(ret.value is call for ret in returns_of(fn))
    )


def made_here(servers: Servers, module: ParsedModule, call: ast.Call, scope: Scope | None) -> Server | None:
    """The server a call of a factory returning its own local server makes (see the module's
    docstring), or None when the callee is no such factory."""
    symbol = servers.names.resolve(module, call.func, scope)
    symbol = servers.names.follow(symbol) if symbol is not None else None
    if isinstance(symbol, Defined) and isinstance(symbol.node, ast.ClassDef):  # `server = NotesServer()`
        return made_instance(servers, symbol, module, call, scope)
    if not isinstance(symbol, Defined) or not isinstance(symbol.node, ast.FunctionDef):
        return None
    local = returned_local(servers, symbol)
    if local is None:
        return None
    return servers.made_by(local, module, call, each_run=scope is not None)


def returned_local(servers: Servers, symbol: Defined) -> Server | None:
    """The server bound in `symbol`'s function body that its every `return` hands out, found
    once per function. None for a decorated function (what its wrapper returns is its own, a
    cache's is one server for every call: `made`)."""
    fn = symbol.node
    key = id(fn)
    if key not in servers.returned:
        servers.returned[key] = None  # `return build()` inside `build` makes nothing known
        servers.returned[key] = _returned_local(servers, symbol)
    return servers.returned[key]


def _returned_local(servers: Servers, symbol: Defined) -> Server | None:
    fn = symbol.node
    if not isinstance(fn, ast.FunctionDef) or fn.decorator_list:
        return None
    inner = Scope(symbol.module, fn, symbol.qualname, symbol.scope)
    found = [
        servers.of(symbol.module, ret.value, inner) if ret.value is not None else None
        for ret in returns_of(fn)
    ]
    first = found[0] if found else None
    if (
        not isinstance(first, Server)
        or first.made_at is not None
        or any(f is not first for f in found)
        or getattr(servers.bound_in.get(id(first)), "function", None) is not fn
    ):
        return None
    return first


def factory_returning(servers: Servers, server: Server) -> ast.FunctionDef | ast.ClassDef | None:
    """The factory whose local `server` every `return` hands out: its calls each make one
    (`made_here`), with the tools it registers on `server`; for the server standing for a
    subclass's instances, what a call of the class runs (`subclass_servers.instantiated`)."""
    instances = instantiated(servers, server)
    if instances is not None:
        return instances
    scope = servers.bound_in.get(id(server))
    fn = scope.function if scope is not None else None
    if scope is None or not isinstance(fn, ast.FunctionDef):
        return None
    found = returned_local(servers, Defined(scope.module, fn, scope.qualname, scope=scope.parent))
    return fn if found is server else None


def made(servers: Servers, module: ParsedModule, call: ast.Call, scope: Scope | None) -> Made:
    """What a call of a project function makes (see `Made`), found once per function
    (`Servers.made`); None for anything else."""
    names = servers.names
    symbol = names.resolve(module, call.func, scope)
    symbol = names.follow(symbol) if symbol is not None else None
    if not isinstance(symbol, Defined) or not isinstance(symbol.node, ast.FunctionDef):
        return None  # an `async def` makes a coroutine
    key = id(symbol.node)
    if key not in servers.made:
        servers.made[key] = None  # a getter returning its own call makes nothing known
        servers.made[key] = _returned(servers, symbol, symbol.node)
    return servers.made[key]


def _returned(servers: Servers, symbol: Defined, fn: ast.FunctionDef) -> Made:
    """What every `return` of `fn` hands out, when they agree."""
    module = symbol.module
    cached = False
    for deco in fn.decorator_list:
        if (
            servers.names.canonical(module, deco.func if isinstance(deco, ast.Call) else deco)
            not in MEMOIZING
        ):
            return None  # what another decorator's wrapper returns is its own
        cached = True
    inner = Scope(module, fn, symbol.qualname, symbol.scope)
    found = [_value(servers, symbol, fn, ret.value, inner) for ret in returns_of(fn)]
    if found and all(isinstance(m, Server) for m in found) and len({id(m) for m in found}) == 1:
        return found[0]
    if found and all(m is not None and not isinstance(m, Server) for m in found):
        first = next((m for m in found if isinstance(m, ast.Call)), True)
        # Cached: the first call's server, whoever calls; named after the function.
        return servers.server(module, f"{fn.name}()", fn, first, symbol.scope) if cached else first
    if fn.returns is not None and servers.is_annotation(module, fn.returns):
        return True  # `-> MCPServer`: a factory whose returns are not followed
    return None


def _value(
    servers: Servers, symbol: Defined, fn: ast.FunctionDef, value: ast.expr | None, inner: Scope
) -> Made:
    """What one `return` (or a `global` assignment) hands out (see `Made`)."""
    module = symbol.module
    if isinstance(value, ast.Call):
        return value if servers.is_call(module, value, inner) else made(servers, module, value, inner)
    if not isinstance(value, ast.Name):
        return None
    if any(isinstance(n, ast.Global) and value.id in n.names for n in own_nodes(fn)):
        return _global(servers, symbol, fn, value.id, inner)
    found = servers.names.follow(servers.names.lookup(module, value.id, inner))
    if not isinstance(found, Value):
        return None
    if found.scope is None:  # `return _mcp`, a module-level server: every call's
        return servers.of_value(found)
    return servers.origin(found.module, found.node, found.scope, found.annotation) or None


def _global(servers: Servers, symbol: Defined, fn: ast.FunctionDef, name: str, inner: Scope) -> Server | None:
    """`global _mcp; if _mcp is None: _mcp = MCPServer(...)`: the module-level server the
    function sets on its first call (what it assigns there, when that is a server), or the
    one the module binds."""
    module = symbol.module
    for node in own_nodes(fn):
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Call):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                found = _value(servers, symbol, fn, node.value, inner)
                if isinstance(found, Server):
                    return found
                if found is not None:
                    return servers.server(module, name, node.value, found)
    held = servers.names.lookup(module, name)
    return servers.of_value(held) if isinstance(held, Value) else None


def written_at(module: ParsedModule, call: ast.Call) -> str:
    """The variable of a server made where a call is written: the callee and the call's
    position (`MCPServer()@5:10`), unique in its file and the same in every run."""
    span = module.span(call)
    callee = ast.unparse(call.func) if isinstance(call.func, ast.Name | ast.Attribute) else "server"
    return f"{callee}()@{span.line}:{span.column}"


def bound_name(module: ParsedModule, call: ast.Call) -> str | None:
    """The name `call` (written in `module`) is bound to, `mcp` of `mcp = build()` (annotated
    or not); None when its result is not bound to one name (`register(build())`)."""
    for node in ast.walk(module.tree) if module.tree is not None else ():
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is call:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                return targets[0].id
    return None
