"""Which expressions denote an `MCPServer`: the servers registrations land on.

A server is an `MCPServer(...)` call (or one of a project subclass), a variable annotated
`MCPServer`, the result of a project factory annotated `-> MCPServer` or returning one,
wherever it is bound: at module level or as a factory's local variable. A function
parameter is a server *slot* (`ParamServer`) unless its annotation excludes a server
(`server_annotations.py`: `MCPServer`, `MCPServer | None`, `Any`, `object` or none at all
let one through, `int` does not); which servers fill it is decided by its call sites
(`registrations.py`, `reach.py`). So
is a server an object holds (`self.server` stored by `__init__`, or a dataclass field). A
call written where a server is expected (`register(MCPServer("x"))`, `@get_mcp().tool()`)
stands for the server it makes or hands out (`called_servers.py`); one read out of a mapping
(`SERVERS["admin"]`, `kwargs["server"]`) for the entry or keyword argument it reads (`keyed_servers.py`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from .called_servers import Made, bound_name, called, made_here
from .called_servers import made as called_made
from .class_members import decorator_names, inherited_method, init_fields, project_bases
from .keyed_servers import keyed
from .model import Graph, Server, Span
from .records import slotted
from .registration_arguments import name_argument
from .server_annotations import Slot, slot_of, unquoted
from .signatures import Classes, function_params, returns_of
from .source import ParsedModule
from .subclass_servers import class_server, is_super_init
from .symbols import Defined, External, Names, Param, Scope, Value, sdk_name
from .typeexpr import TClass


@slotted
class ParamServer:
    """A server that is a function parameter (`def register(server: MCPServer)`)."""

    module: ParsedModule
    function: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    """The function, or a dataclass: a field of the `__init__` it generates (no `self`)."""
    index: int
    name: str
    annotated: bool = True
    """Annotated as a server (`MCPServer`, `MCPServer | None`: `Slot.SERVER`): a server even
    when no call site in the project passes one. `Any` or no annotation: only what calls pass."""
    holder: ast.ClassDef | None = None
    """The subclass a method reading `self.mcp` is written in, when the `__init__` storing it
    is a base class's: only that subclass's instances (`WeatherTools(mcp)`) fill it."""


class Servers:
    """The servers of one build, by where they are bound (module path, scope, variable)."""

    def __init__(self, names: Names, classes: Classes, graph: Graph) -> None:
        self.names = names
        self.classes = classes
        self.graph = graph
        self._servers: dict[str, Server] = {}
        self._classes: dict[Path, dict[int, ast.ClassDef]] = {}
        self.made: dict[int, Made] = {}
        """What each project function's call makes (`called_servers.made`), by its def."""
        self.returned: dict[int, Server | None] = {}
        """The local server each project function returns (`called_servers.returned_local`)."""
        self.bound_in: dict[int, Scope] = {}
        """The function body each server bound in one is bound in, by the server's `id`."""
        self.calls_made: list[tuple[Server, Server]] = []
        """Each server a call of a factory made (`made_by`), with the factory's local one (or
        of a subclass of `MCPServer`, with the class's: `subclass_servers.made_instance`)."""
        self.instance_classes: dict[int, ast.ClassDef] = {}
        """The class each server standing for a subclass's instances is of, by the server's `id`."""

    def of(self, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> Server | ParamServer | None:
        """The server an expression like `mcp` or `app.server.mcp` denotes, if any; a call
        (`MCPServer("x")`, `get_mcp()`) stands for one as `called_servers` says."""
        if isinstance(expr, ast.Call):  # (`kwargs.get("mcp")`: read out of a mapping)
            return called(self, module, expr, scope) or keyed(self, module, expr, scope)
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            held = self._held(module, expr, scope)
            if held is not None:
                return held
        if isinstance(expr, ast.Subscript) and (entry := keyed(self, module, expr, scope)) is not None:
            return entry  # `@SERVERS["admin"].tool()`, `kwargs["mcp"].add_tool(fn)`
        symbol = self.names.resolve(module, expr, scope)
        symbol = self.names.follow(symbol) if symbol is not None else None
        entry = keyed(self, symbol.module, symbol.node, symbol.scope) if isinstance(symbol, Value) else None
        if entry is not None:  # `mcp = kwargs["mcp"]`, `mcp = SERVERS["admin"]`
            return entry
        if isinstance(symbol, Value):
            return self.of_value(symbol)
        if isinstance(symbol, Param) and isinstance(symbol.function, ast.FunctionDef | ast.AsyncFunctionDef):
            fn = symbol.function
            if (
                fn.args.args
                and fn.args.args[0] is symbol.node
                and self.class_of(module, fn) is not None
                and "staticmethod" not in decorator_names(fn)
            ):
                return self._itself(module, fn)  # `self`: an instance of the class
            ann = symbol.node.annotation
            slot = slot_of(self.names, self.classes, symbol.module, ann)
            if slot is not Slot.CLOSED and (ann is not None or symbol.node.arg not in ("self", "cls")):
                params = [a for a, *_ in function_params(fn)]
                index = params.index(symbol.node)
                return ParamServer(symbol.module, fn, index, symbol.node.arg, slot is Slot.SERVER)
        return None

    def of_value(self, symbol: Value) -> Server | None:
        """The server a name bound by assignment holds (`mcp = MCPServer(...)`), if it holds one:
        the getter's own when it is bound to a call of one (`mcp = get_mcp()`), the dict's entry
        when it is bound to one (`mcp = SERVERS["admin"]`)."""
        entry = keyed(self, symbol.module, symbol.node, symbol.scope)
        if isinstance(entry, Server):
            return entry
        if isinstance(symbol.node, ast.Call):
            made = called_made(self, symbol.module, symbol.node, symbol.scope)
            if isinstance(made, Server):
                return made
            here = made_here(self, symbol.module, symbol.node, symbol.scope)
            if here is not None:  # `mcp = build()`: the server this call of the factory makes
                return here
        origin = self.origin(symbol.module, symbol.node, symbol.scope, symbol.annotation)
        if origin is False:
            return None
        return self.server(symbol.module, symbol.name, symbol.node, origin, symbol.scope)

    def _held(
        self, module: ParsedModule, expr: ast.Attribute, scope: Scope | None
    ) -> Server | ParamServer | None:
        """`self.mcp` in a method, or `app.mcp` where `app = App()`: what the class's `__init__`
        stores there (`self.mcp = mcp`, its own parameter filled by each `App(server)`, or
        `self.mcp = MCPServer(...)`), else what its body binds (`class State: mcp =
        MCPServer(...)`, read through the instance)."""
        holder = self._holder(module, expr.value, scope)  # type: ignore[arg-type]
        if holder is None:
            return None
        module, cls, parent = holder
        read = _property_of(cls, expr.attr)
        if read is not None:  # `@property def mcp(self): return self._mcp`
            expr = ast.Attribute(expr.value, read, ast.Load())
        init = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
        if init is not None:
            found, own = self._stored(module, cls, init, expr.attr, parent)
            if not own:
                found, own = self._through_super(module, cls, init, expr.attr, parent)
            # An attribute `__init__` stores hides the class's, whatever it stores.
            return found if own else self._class_attribute(module, cls, expr.attr, parent)
        field = self._field(module, cls, expr.attr)
        if field is not None:
            return field
        inherited = self._base_init(module, cls)
        if inherited is not None:
            found, own = self._stored(*inherited, expr.attr, None)
            if own:  # `class Weather(Tools)`, `Tools.__init__` storing `self._mcp = mcp_server`
                return replace(found, holder=cls) if isinstance(found, ParamServer) else found
        else:  # a base `@dataclass` declaring `mcp: MCPServer`: its generated `__init__`
            fields = (self._field(base.module, node, expr.attr) for base, node in self._bases(module, cls))
            field = next((f for f in fields if f is not None), None)
            if field is not None:
                return replace(field, holder=cls)
        return self._class_attribute(module, cls, expr.attr, parent)

    def _bases(self, module: ParsedModule, cls: ast.ClassDef) -> Iterator[tuple[Defined, ast.ClassDef]]:
        """The project classes `cls` names as its bases, with their nodes."""
        for base in project_bases(self.names, module, cls):
            assert isinstance(base.node, ast.ClassDef)  # as `project_bases` gives them
            yield base, base.node

    def _base_init(
        self, module: ParsedModule, cls: ast.ClassDef
    ) -> tuple[ParsedModule, ast.ClassDef, ast.FunctionDef] | None:
        """The `__init__` a project class's bases give it, and the class defining it."""
        for base, _ in self._bases(module, cls):
            init = inherited_method(self.names, base, "__init__")
            owner = self.class_of(init.module, init.node) if init is not None else None
            if init is not None and isinstance(init.node, ast.FunctionDef) and owner is not None:
                return init.module, owner, init.node
        return None

    def _through_super(
        self, module: ParsedModule, cls: ast.ClassDef, init: ast.FunctionDef, attr: str, parent: Scope | None
    ) -> tuple[Server | ParamServer | None, bool]:
        """`super().__init__(mcp)` in `init`: what the base's `__init__` stores in `self.<attr>`,
        its parameter read as the argument this call passes (a parameter of `init` in turn)."""
        call = next((c for c in ast.walk(init) if is_super_init(c)), None)
        inherited = self._base_init(module, cls) if call is not None else None
        if call is None or inherited is None:
            return None, False
        found, own = self._stored(*inherited, attr, None)
        if not isinstance(found, ParamServer) or found.function is not inherited[2]:
            return found, own
        at = found.index - 1  # the call passes no `self`
        arg = call.args[at] if 0 <= at < len(call.args) else None
        arg = next((k.value for k in call.keywords if k.arg == found.name), arg)
        if not isinstance(arg, ast.Name):
            return None, own
        return self.of(module, arg, Scope(module, init, f"{cls.name}.__init__", parent)), True

    def _stored(
        self, module: ParsedModule, cls: ast.ClassDef, init: ast.FunctionDef, attr: str, parent: Scope | None
    ) -> tuple[Server | ParamServer | None, bool]:
        """The server `init` stores in `self.<attr>` (`self.mcp = mcp`, or `= MCPServer(...)`),
        and whether it stores anything there at all."""
        if not init.args.args:
            return None, False
        me = init.args.args[0].arg
        inner = Scope(module, init, f"{cls.name}.__init__", parent)
        own = False
        for stmt in ast.walk(init):
            if isinstance(stmt, ast.Assign | ast.AnnAssign):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                stored = any(
                    isinstance(t, ast.Attribute)
                    and t.attr == attr
                    and isinstance(t.value, ast.Name)
                    and t.value.id == me
                    for t in targets
                )
                if stored and stmt.value is not None:
                    if self.is_call(module, stmt.value, inner):
                        return self.server(module, attr, stmt.value, stmt.value, inner), True  # type: ignore[arg-type]
                    if isinstance(stmt.value, ast.IfExp):  # `MCPServer("x") if MCPServer else None`
                        made = self.origin(module, stmt.value, inner, None)
                        return (self.server(module, attr, stmt.value, made, inner) if made else None), True
                    if isinstance(stmt.value, ast.Name):
                        return self.of(module, stmt.value, inner), True
                own = own or stored
        return None, own

    def _class_attribute(
        self, module: ParsedModule, cls: ast.ClassDef, name: str, parent: Scope | None
    ) -> Server | None:
        """`State.mcp` read through an instance: the same server as read through the class
        (of a module-level class: a nested one's attributes are not followed by `Names` either)."""
        if parent is not None or module.tree is None or cls not in module.tree.body:
            return None
        symbol = self.names.member(Defined(module, cls, cls.name), name)
        return self.of_value(symbol) if isinstance(symbol, Value) else None

    def _field(self, module: ParsedModule, cls: ast.ClassDef, name: str) -> ParamServer | None:
        """`self.app` of a `@dataclass` declaring `app: MCPServer`: the argument its generated
        `__init__` stores there, filled by each `Registry(mcp)` as a parameter would be."""
        if not any(
            self.names.canonical(module, d.func if isinstance(d, ast.Call) else d) == "dataclasses.dataclass"
            for d in cls.decorator_list
        ):
            return None
        fields = init_fields(cls)
        at = next((i for i, (field, _) in enumerate(fields) if field == name), None)
        if at is None:
            return None
        annotated = slot_of(self.names, self.classes, module, fields[at][1].annotation) is Slot.SERVER
        return ParamServer(module, cls, at, name, annotated)

    def _holder(
        self, module: ParsedModule, name: ast.Name, scope: Scope | None
    ) -> tuple[ParsedModule, ast.ClassDef, Scope | None] | None:
        """The class of the object `name` denotes: `self` in a method, or a `Cls()` bound to it."""
        while scope is not None and name.id not in scope.bindings:
            scope = scope.parent  # `self` of the method a nested `def decorator(fn)` is written in
        fn = scope.function if scope is not None else None
        if (
            isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
            and fn.args.args
            and fn.args.args[0].arg == name.id
        ):
            cls = self.class_of(module, fn)
            if cls is not None:
                return module, cls, scope.parent if scope is not None else None
        symbol = self.names.resolve(module, name, scope)
        symbol = self.names.follow(symbol) if symbol is not None else None
        if isinstance(symbol, Param) and symbol.node.annotation is not None:
            return self._annotated_class(symbol.module, symbol.node.annotation)
        if not isinstance(symbol, Value) or not isinstance(symbol.node, ast.Call):
            return None
        callee = self.names.resolve(symbol.module, symbol.node.func, symbol.scope)
        callee = self.names.follow(callee) if callee is not None else None
        if isinstance(callee, Defined) and isinstance(callee.node, ast.ClassDef):
            return callee.module, callee.node, callee.scope
        return None

    def _annotated_class(
        self, module: ParsedModule, ann: ast.expr
    ) -> tuple[ParsedModule, ast.ClassDef, Scope | None] | None:
        """`context: AppContext`: the module-level project class a parameter is annotated with
        (what its callers pass is an instance: `register(AppContext(mcp))`)."""
        written = unquoted(ann)
        if written is None:
            return None
        cls = self.names.resolve(module, written, None)
        cls = self.names.follow(cls) if cls is not None else None
        if isinstance(cls, Defined) and isinstance(cls.node, ast.ClassDef) and cls.scope is None:
            return cls.module, cls.node, None
        return None

    def _itself(self, module: ParsedModule, method: ast.FunctionDef | ast.AsyncFunctionDef) -> Server | None:
        """`self.tool()` in a method of a project subclass of `MCPServer`: every instance of it,
        one server (named after the class: `Shop()`; `subclass_servers.py`)."""
        cls = self.class_of(module, method)
        return class_server(self, module, cls) if cls is not None else None

    def class_of(self, module: ParsedModule, fn: ast.AST) -> ast.ClassDef | None:
        """The class whose body defines `fn` (module-level classes and classes nested in them)."""
        classes = self._classes.get(module.path)
        if classes is None:
            classes = self._classes[module.path] = {}
            # A class statement is spelt `class`: a text without the word has none to walk for.
            spelt = module.text is None or "class" in module.text
            for node in _statements(module.tree.body if spelt and module.tree is not None else []):
                if isinstance(node, ast.ClassDef):
                    for stmt in node.body:
                        classes[id(stmt)] = node
        return classes.get(id(fn))

    def is_call(self, module: ParsedModule, node: ast.AST, scope: Scope | None) -> bool:
        """`MCPServer(...)` under any import alias, or an instance of a project subclass of it."""
        if not isinstance(node, ast.Call):
            return False
        symbol = self.names.resolve(module, node.func, scope)
        symbol = self.names.follow(symbol) if symbol is not None else None
        if isinstance(symbol, External):
            return sdk_name(symbol.qualname) == "MCPServer"
        if isinstance(symbol, Defined) and isinstance(symbol.node, ast.ClassDef):
            cls = TClass(symbol.module.name, symbol.qualname, symbol.node, symbol.module)
            return self.classes.is_sub(cls, frozenset({"MCPServer"}))
        return False

    def origin(
        self, module: ParsedModule, node: ast.AST, scope: Scope | None, annotation: ast.expr | None
    ) -> ast.Call | bool:
        """Whether a bound value is a server; if so the `MCPServer(...)` call that names it, or True.

        `MCPServer(...)` itself, a variable annotated `MCPServer`, or a call of a project factory
        annotated `-> MCPServer` or returning `MCPServer(...)`. False when it is no server.
        """
        if self.is_call(module, node, scope):
            assert isinstance(node, ast.Call)
            return node
        if isinstance(node, ast.IfExp):  # `MCPServer("x") if MCPServer else None`: the arm making one
            arms = (self.origin(module, arm, scope, None) for arm in (node.body, node.orelse))
            return next((arm for arm in arms if arm is not False), False)
        if isinstance(node, ast.Call):
            symbol = self.names.resolve(module, node.func, scope)
            symbol = self.names.follow(symbol) if symbol is not None else None
            if isinstance(symbol, Defined) and isinstance(
                symbol.node, ast.FunctionDef | ast.AsyncFunctionDef
            ):
                fn = symbol.node
                factory_call = next(
                    (
                        r.value
                        for r in returns_of(fn)
                        if isinstance(r.value, ast.Call) and self.is_call(symbol.module, r.value, None)
                    ),
                    None,
                )
                if factory_call is not None:
                    return factory_call
                if fn.returns is not None and self.is_annotation(symbol.module, fn.returns):
                    return True
        return annotation is not None and self.is_annotation(module, annotation)

    def is_annotation(self, module: ParsedModule, ann: ast.expr) -> bool:
        """`MCPServer`, `"MCPServer"` or `MCPServer[Deps]` under any import alias."""
        written = unquoted(ann)
        if written is None:
            return False
        if isinstance(written, ast.Subscript):
            written = written.value
        return sdk_name(self.names.declared(module, written)) == "MCPServer"

    def server(
        self,
        module: ParsedModule,
        variable: str,
        site: ast.AST,
        origin: ast.Call | bool,
        scope: Scope | None = None,
        *,
        instance: bool = False,
    ) -> Server:
        """The one `Server` of a binding: a module's variable, or a factory's local variable.

        Its id is `module:variable` either way, as the live builder names the server it
        finds (a factory's server has no module-level name).
        """
        where = f"{scope.qualname}.<locals>." if scope is not None else ""
        key = f"{module.path}:{where}{variable}"  # module names repeat across source roots; paths do not
        if key not in self._servers:
            call = origin if isinstance(origin, ast.Call) else None
            first = name_argument(call) if call is not None else None
            name = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
            server = Server(
                f"{module.name}:{variable}",
                name,
                variable,
                module.name,
                module.display,
                module.span(site),
                local=scope is not None or instance,
                scope=scope.qualname if scope is not None else "",
            )
            self._servers[key] = server
            self.graph.servers.append(server)
            if scope is not None:
                self.bound_in[id(server)] = scope
        return self._servers[key]

    def made_by(self, local: Server, module: ParsedModule, call: ast.Call, *, each_run: bool) -> Server:
        """The server `call` of the factory returning `local` makes: shown as `local`
        (`Server.made_at`), one per call. `each_run`: the call is in a function, each run of
        which makes its own (`Server.local`)."""
        at = Span.of(module.display, call)  # ast's columns, as `CallOrder` keeps the call's
        key = f"{local.path}:{local.id}@{at.path}:{at.line}:{at.column}"
        if key not in self._servers:
            made = replace(local, tools=[], handlers=[], local=each_run, removes=False, made_at=at)
            made.bound_as = bound_name(module, call)
            self._servers[key] = made
            self.calls_made.append((made, local))
            self.graph.servers.append(made)
        return self._servers[key]

    def parameter(self, ps: ParamServer) -> Server:
        """The server standing for a parameter no call site in the project fills (a library of tools)."""
        sid = f"{ps.module.name}:{ps.function.name}({ps.name})"
        if sid not in self._servers:
            server = Server(
                sid,
                None,
                ps.name,
                ps.module.name,
                ps.module.display,
                ps.module.span(ps.function),
                parameter=True,
            )
            self._servers[sid] = server
            self.graph.servers.append(server)
        return self._servers[sid]


def _property_of(cls: ast.ClassDef, name: str) -> str | None:
    """The attribute a `@property` of the class body named `name` returns (`return self._mcp`)."""
    for stmt in cls.body:
        if (
            not isinstance(stmt, ast.FunctionDef)
            or stmt.name != name
            or "property" not in decorator_names(stmt)
        ):
            continue
        body = [s for s in stmt.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        read = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
        if (
            isinstance(read, ast.Attribute)
            and isinstance(read.value, ast.Name)
            and stmt.args.args
            and read.value.id == stmt.args.args[0].arg
            and read.attr != name
        ):
            return read.attr
    return None


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of `body` and of the blocks nested in it (a class is a statement, so
    no expression need be visited: a whole-tree `ast.walk` here was a tenth of a cold run)."""
    todo = list(body)
    while todo:
        stmt = todo.pop()
        yield stmt
        for name in ("body", "orelse", "finalbody"):
            block = getattr(stmt, name, None)
            if isinstance(block, list):
                todo.extend(block)
        for handler in getattr(stmt, "handlers", ()):
            todo.extend(handler.body)
        for case in getattr(stmt, "cases", ()):
            todo.extend(case.body)
