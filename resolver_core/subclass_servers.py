"""Servers that are instances of a project subclass of `MCPServer`, and the ones its calls make.

`class NotesServer(MCPServer)` registering its bound methods on `self` in `__init__`
(`self.add_tool(self.list_notes)`) makes every instance a server holding those tools. Read in a
method, `self` is every instance at once: one server named after the class (`NotesServer()`),
its name the one `__init__` hands the SDK (`super().__init__("notes")`). A call of the class
(`server = NotesServer()`) makes one such instance, which is what `graph --live` finds: a server
bound to that name, holding the tools the methods register on `self`. So each call is read as a
factory's is (`called_servers.made_here`, `factory_results.py`): the server it makes (bound
where the call is written, as `MCPServer(...)` written there would be) receives what lands on
the class's server, which is left out of the graph once every instance holds its tools.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, TypeGuard

from .model import Server
from .source import ParsedModule
from .symbols import Defined, Scope
from .typeexpr import TClass

if TYPE_CHECKING:
    from .servers import Servers


def class_server(servers: Servers, module: ParsedModule, cls: ast.ClassDef) -> Server | None:
    """Every instance of `cls` (written in `module`) as one server, when it derives from
    `MCPServer`; None otherwise."""
    if not servers.classes.is_sub(TClass(module.name, cls.name, cls, module), frozenset({"MCPServer"})):
        return None
    init = _own_init(cls)
    named = next((n for n in ast.walk(init) if is_super_init(n)), None) if init is not None else None
    server = servers.server(module, f"{cls.name}()", cls, named or True, instance=True)
    servers.instance_classes[id(server)] = cls
    return server


def made_instance(
    servers: Servers, symbol: Defined, module: ParsedModule, call: ast.Call, scope: Scope | None
) -> Server | None:
    """The server a call of a project subclass of `MCPServer` (`symbol`) makes, written in
    `module` (`server = NotesServer()`): the one `MCPServer(...)` written there would be,
    named as the class's `__init__` names it when it has one of its own, holding what the
    class's methods register on `self` (`factory_results.each_call`). None for another class."""
    if not isinstance(symbol.node, ast.ClassDef):
        return None
    instances = class_server(servers, symbol.module, symbol.node)
    if instances is None:
        return None
    from .called_servers import bound_name, written_at  # (which reads calls through this module)

    made = servers.server(module, bound_name(module, call) or written_at(module, call), call, call, scope)
    if made is instances:
        return None
    init = _own_init(symbol.node)
    if init is not None:  # its own parameters: the call's first is no name
        made.name = instances.name if instances.name is not None else _name_passed(init, call)
    if not any(each is made for each, _ in servers.calls_made):
        servers.calls_made.append((made, instances))
    return made


def instantiated(servers: Servers, server: Server) -> ast.FunctionDef | ast.ClassDef | None:
    """What a call of the class whose instances `server` stands for runs (its own `__init__`,
    else the class itself: `CallSites.sites` records calls under it), None for another server."""
    cls = servers.instance_classes.get(id(server))
    if cls is None:
        return None
    return _own_init(cls) or cls


def _name_passed(init: ast.FunctionDef, call: ast.Call) -> str | None:
    """`super().__init__(name)` handing the SDK a parameter of `__init__`: the string the call
    of the class passes for it (`PermissionedServer("files", allowed=...)`), or its default."""
    from .passed_loops import argument  # (which reads servers, as this module's callers do)
    from .signatures import function_params

    named = next((n for n in ast.walk(init) if is_super_init(n)), None)
    if named is None:
        return None
    arg = argument(named, 0, "name")
    params = function_params(init)
    index = next((i for i, p in enumerate(params) if p[0].arg == getattr(arg, "id", None)), None)
    if not isinstance(arg, ast.Name) or index is None or params[index][1] is not None:
        return None
    positional = len(init.args.posonlyargs) + len(init.args.args)  # `self` first
    given = argument(call, index - 1 if index < positional else -1, arg.id)
    given = given if given is not None else params[index][3]
    return given.value if isinstance(given, ast.Constant) and isinstance(given.value, str) else None


def _own_init(cls: ast.ClassDef) -> ast.FunctionDef | None:
    return next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)


def is_super_init(node: ast.AST) -> TypeGuard[ast.Call]:
    """`super().__init__(...)` (or `super(Cls, self).__init__(...)`)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "__init__"
        and isinstance(node.func.value, ast.Call)
        and isinstance(node.func.value.func, ast.Name)
        and node.func.value.func.id == "super"
    )
