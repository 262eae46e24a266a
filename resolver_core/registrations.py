"""Registration sites: every `@server.tool()`, `server.add_tool(...)`, prompt and resource
the source writes, wherever it is written.

One notion of a registration site for module-level code, factories (`def build_server() ->
MCPServer`), helpers that receive the server (`def register(server)`), class bodies and
methods, and every branch: the SDK raises a registration error when the site runs, at import
or at start-up, so every site counts as if its function were called. Which servers a site
lands on, and which functions a registration of a parameter stands for, is decided from the
call sites (`reach.py`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from contextlib import ExitStack
from pathlib import Path

from .arms import ArmStack
from .confined import Confined
from .constant_names import text_value
from .constructor_tools import as_kept, assigned, constructor_tools, unread, written_name
from .enclosing_loops import EnclosingLoops
from .extension_tools import ExtensionTools
from .handed_servers import HandedServers
from .model import RegistrationForm, Server, Span
from .prefilter import holds, lines_in
from .registrar_aliases import RegistrarAliases, calling
from .registration_arguments import is_none, name_argument, passes_function
from .registration_site import Registration, Unfollowed, unlisted_loop
from .rewritten import rewritten_functions
from .servers import ParamServer, Servers
from .source import ParsedModule
from .statement_calls import calls_in
from .symbols import Names, Param, Scope, Value
from .unanalysed_tools import Written, on_mcp1
from .unpacked_options import ADDED, APPLIED, folded, spelt_out
from .written_decorators import REGISTRARS


class Scanner:
    """Finds the registration sites of the modules it is given, and the servers they name."""

    def __init__(self, names: Names, servers: Servers) -> None:
        self.names = names
        self.servers = servers
        self.aliases = RegistrarAliases(names, servers)
        """Names bound to a server's registration methods (`tool = mcp.tool`), read as those."""
        self.extensions = ExtensionTools(names)
        """The defs `Apps` instances decorated, registered by the servers given them."""
        self.found: list[Registration] = []
        self.unfollowed: list[Unfollowed] = []
        self.scanned: list[ParsedModule] = []
        self.scanned_paths: set[Path] = set()
        self.handing = HandedServers()
        """Module-level calls handing a server to another module's function, followed into it."""
        self._loops = EnclosingLoops(names)
        """The loops around the statement being scanned, and the values their variables take."""
        self.confined: Confined | None = None
        """Where the servers of callers checked only for the run's helpers are followed."""
        self._rewritten: dict[Path, set[str]] = {}
        self._arms = ArmStack()
        """The arms of exclusive statements around the statement being scanned (`arms.py`)."""
        self._returning: ast.expr | None = None
        """The value of the `return` statement being scanned."""
        self._assigned: tuple[ast.expr, str] | None = None
        """The value of the `name = ...` statement being scanned, and the name."""
        self._tokens: tuple[str, ...] = (".tool(", "add_tool", "tools=")
        self._token_lines: list[int] = []
        """Lines of the module being scanned that mention one of `_tokens`, in order."""
        self._marked: list[int] | None = None
        """Lines of the module being scanned with a token or a `@` (a decorator): a block
        without one registers nothing, so its statements are not visited. None: visit all."""

    def scan(self, module: ParsedModule) -> None:
        """Find servers, registrations and call sites in one module (all scopes)."""
        if module.tree is None or module.path in self.scanned_paths:
            return  # scanned already: as a given file, or for a server passed into it
        self.scanned.append(module)
        self.scanned_paths.add(module.path)
        table = self.names.table(module)
        confined = self.confined
        for name, binding in table.items():
            if binding.kind != "value":  # `mcp = MCPServer(...)`, or a getter's (`mcp = get_mcp()`)
                continue
            if confined is not None and confined.unread(
                self.names.project, module, name, binding.node, table
            ):
                # What its factory's tools run is not known: the record says so (`Confined.unread`).
                self.servers.graph.unclassified.add(module.display)
                continue
            self.servers.of_value(Value(module, binding.node, name, binding.annotation))  # type: ignore[arg-type]
        text = module.text or ""
        # Walking every expression for calls is the costliest part of a scan: only do it
        # where a registration call can appear at all (also through `register = mcp.add_tool`).
        aliases = (
            *self.aliases.module_level(module, table),
            *self.aliases.in_functions(text),  # `tool = mcp.tool` in a def
        )
        self._tokens = (
            ".tool(",
            "add_tool",
            "tools=",  # `MCPServer("x", tools=[Tool.from_function(fn)])`
            "extensions=",  # `MCPServer("x", extensions=[apps])`
            ".remove_tool(",
            *(f"{name}(" for name in aliases),
            *(f"map({name}," for name in aliases),  # `list(map(add, TOOLS))`
        )
        calls = any(t in text for t in self._tokens)
        self._token_lines = lines_in(module, self._tokens) if calls else []
        # Line numbers as `splitlines` counts them, which is how `ast` counts them unless the
        # text has a separator only `splitlines` knows (a form feed): then every block is visited.
        self._marked = (
            None
            if module.other_breaks()
            else sorted({*self._token_lines, *lines_in(module, ("@",))})
            if "@" in text
            else self._token_lines
        )
        self._scan_body(module, module.tree.body, None, calls)
        self.handing.follow(self, module, table, text)

    def _scan_body(
        self,
        module: ParsedModule,
        body: Iterable[ast.stmt],
        scope: Scope | None,
        calls: bool,
        prefix: str = "",
    ) -> None:
        """A block's registrations, in function bodies (`scope`) and class bodies (`prefix`) too."""
        for stmt in body:
            if isinstance(stmt, _FUNCTIONS):
                if stmt.decorator_list:
                    self._decorated(module, stmt, scope, f"{prefix}{stmt.name}")
                if self._may_register(stmt):
                    inner = Scope(module, stmt, f"{prefix}{stmt.name}", scope)
                    self._scan_body(module, stmt.body, inner, calls, f"{inner.qualname}.<locals>.")
            elif isinstance(stmt, ast.ClassDef):
                if self._may_register(stmt):  # a class body runs; its methods register when called
                    self._scan_body(module, stmt.body, scope, calls, f"{prefix}{stmt.name}.")
            else:
                if calls and holds(stmt, self._token_lines, decorators=False):
                    if isinstance(stmt, ast.Return) and scope is not None:
                        self._returned(module, stmt.value, scope)
                    elif isinstance(stmt, ast.Assign | ast.AnnAssign):
                        self._bound(module, stmt, scope)
                    self._returning = stmt.value if isinstance(stmt, ast.Return) else None
                    self._assigned = assigned(stmt)
                    for node, loops in calls_in(stmt):
                        with ExitStack() as inside:  # `[mcp.add_tool(fn) for fn in TOOLS]`: a loop
                            for loop in loops:
                                inside.enter_context(self._loops.entered(module, loop, scope))
                            self._call(module, node, scope)
                    self._returning = self._assigned = None
                if not isinstance(stmt, _COMPOUND) or not self._may_register(stmt):
                    continue  # most statements: no block to look into
                with self._loops.entered(module, stmt, scope):
                    for child in self._arms.blocks(module, stmt):
                        if child is getattr(stmt, "orelse", None) and self._loops.breaks(stmt):
                            continue  # a loop's `else:` after a `break` certain to run: never run
                        self._scan_body(module, child, scope, calls, prefix)

    def _unlisted(self, module: ParsedModule, fn: ast.Name, call: ast.Call) -> bool:
        """`for fn in TOOLS: mcp.add_tool(fn)` over values the source does not list (or
        `attr = getattr(module, name)` in `for name in dir(module):`): noted, not guessed."""
        loop = self._loops.unlisted(fn)
        if loop is None:
            return False
        self.unfollowed.append(unlisted_loop(module, module.span(call), fn.id, loop))
        return True

    def _found(self, reg: Registration) -> None:
        reg.arms = self._arms.current()
        reg.passed = self._loops.passed(reg.fn, reg.name_node)
        self.found.append(reg)

    def _found_all(self, regs: Iterable[Registration]) -> None:
        for reg in regs:
            self._found(reg)

    def rewritten(self, module: ParsedModule) -> set[str]:
        """Qualified names of the functions whose annotations or signature the module assigns at
        run time (`fn.__annotations__["x"] = T`, `fn.__signature__ = ...`): what the SDK reads
        then is not what the source declares."""
        known = self._rewritten.get(module.path)
        if known is None:
            known = self._rewritten[module.path] = rewritten_functions(module)
        return known

    def _may_register(self, stmt: ast.stmt) -> bool:
        """Whether a statement's lines hold a registration token or a decorator (`_marked`)."""
        return self._marked is None or holds(stmt, self._marked, decorators=False)

    def _decorated(
        self,
        module: ParsedModule,
        fn: ast.FunctionDef | ast.AsyncFunctionDef,
        scope: Scope | None,
        qualname: str,
    ) -> None:
        for written in fn.decorator_list:
            deco = self.aliases.called(module, self.aliases.alias_of(module, written, scope), scope)
            call = deco if isinstance(deco, ast.Call) else None
            target = call.func if call is not None else deco
            if not isinstance(target, ast.Attribute) or target.attr not in REGISTRARS:
                continue
            server = self._server_of(module, target, scope, module.span(written), (call, fn))
            if server is None:
                self.extensions.decorated(module, target, fn, scope, (written, qualname))
                continue
            name_node = name_argument(call) if call is not None and target.attr == "tool" else None
            listed = self._loops.names_of(written, name_node) if name_node is not None else None
            for named in listed if listed is not None else [(module, name_node, scope)]:
                self._found(  # (once per name a loop around the def lists: `for n in NAMES:`)
                    Registration(
                        server,
                        target.attr,
                        fn,
                        module,
                        scope,
                        text_value(self.names, *named) if named[1] is not None else None,
                        module.span(written),
                        form="decorator" if call is not None else "uncalled_decorator",
                        decorator=written,
                        name_node=named[1] if isinstance(named[1], ast.Constant) else name_node,
                        qualname=qualname,
                    )
                )

    def _server_of(
        self, module: ParsedModule, method: ast.Attribute, scope: Scope | None, span: Span, written: Written
    ) -> Server | ParamServer | None:
        """`RegistrarAliases.server_of`; a tool registered on mcp 1.x's server is said not analysed
        (`written`: the registering call, if any, and the function it registers)."""
        server = self.aliases.server_of(module, method, scope)
        if server is None and method.attr in ("tool", "add_tool"):
            self.unfollowed += on_mcp1(self.names, module, method.value, scope, span, written)
        return server

    def _returned(self, module: ParsedModule, value: ast.expr | None, scope: Scope) -> None:
        """`def tool(): return mcp.tool()`: a decorator factory handing out the SDK's decorator
        (`def tool(name): return mcp.tool(name)` too: a call of it passes the name)."""
        if not (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr in REGISTRARS
        ):
            return
        if (
            value.args
            and passes_function(value.args[0])
            and not self._parameter(module, value.args[0], scope)
        ):
            return  # `return mcp.tool(fn)` registers `fn` itself (`_call`)
        server = self.servers.of(module, value.func.value, scope)
        if server is not None:
            self._handed_out(server, module, value, scope, returned=True, registrar=value)

    def _bound(self, module: ParsedModule, stmt: ast.Assign | ast.AnnAssign, scope: Scope | None) -> None:
        """`tool = mcp.tool(name="x")`: the SDK's decorator bound to a name, at module level or in
        a function. Where that name is applied in its own scope the scan reads it (`RegistrarAliases.alias_of`);
        elsewhere (imported by another module) `reach.py` finds its uses."""
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        value = stmt.value
        if not (
            len(targets) == 1
            and isinstance(targets[0], ast.Name)
            and isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr in REGISTRARS
            and not (value.args and passes_function(value.args[0]))  # `mcp.tool(fn)` registers fn
        ):
            return
        server = self.servers.of(module, value.func.value, scope)
        if server is None:
            return
        name = targets[0].id
        if scope is not None:  # `tool(fn)` further down the function: the scan must visit it
            self._token_lines = sorted({*self._token_lines, *lines_in(module, (f"{name}(",))})
            if self._marked is not None:
                self._marked = sorted({*self._marked, *self._token_lines})
        self._handed_out(server, module, value, scope, bound=name)

    def _handed_out(
        self,
        server: Server | ParamServer,
        module: ParsedModule,
        value: ast.Call,
        scope: Scope | None,
        *,
        returned: bool = False,
        registrar: ast.Call | None = None,
        bound: str | None = None,
    ) -> None:
        """A site handing out the SDK's decorator (`return server.tool()`, `tool = server.tool()`):
        it registers nothing itself; what it is applied to lands (`reach.py`), under the name it
        passes (`Registration.returned`, `Registration.bound`)."""
        assert isinstance(value.func, ast.Attribute)
        name_node = name_argument(value) if value.func.attr == "tool" else None
        self._found(
            Registration(
                server,
                value.func.attr,
                value,
                module,
                scope,
                text_value(self.names, module, name_node, scope),
                module.span(value),
                "applied",
                name_node=name_node,
                returned=returned,
                registrar=registrar,
                bound=bound,
            )
        )

    def _parameter(self, module: ParsedModule, node: ast.expr, scope: Scope) -> bool:
        """Whether `node` names a parameter of the function `scope` is."""
        symbol = self.names.lookup(module, node.id, scope) if isinstance(node, ast.Name) else None
        return isinstance(symbol, Param) and symbol.function is scope.function

    def _removes(self, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> None:
        """`mcp.remove_tool("t")` (settings disabling tools, a tool replaced by another): the
        server's duplicates are not judged (`Server.removes`), as when and which names it
        removes before the next registration is the run's to say. A server a helper is given
        (`ParamServer`) is not marked: which ones it stands for is known only from its callers."""
        server = self.servers.of(module, expr, scope)
        if isinstance(server, Server):
            server.removes = True

    def _added(
        self,
        server: Server | ParamServer,
        module: ParsedModule,
        scope: Scope | None,
        call: ast.Call,
        fn_node: ast.expr,
        name_node: ast.expr | None,
        returns: bool = False,
        form: RegistrationForm = "add_tool",
    ) -> None:
        """`server.add_tool(fn, name=...)` at `call` (for each value of the loops around it), or
        what registers as it does (`Tool.from_function(fn, name=...)` given to `MCPServer`: `form`
        "listed")."""
        if isinstance(fn_node, ast.Name) and self._unlisted(module, fn_node, call):
            return
        fn_node = self._loops.aliases.unaliased(fn_node)  # `w = f` in the loop: `f`
        landings = [
            (fn, where, at, folded(self.names, named))
            for fn, where, at, named in self._loops.each(module, scope, fn_node, name_node)
        ]
        collector = self._loops.collector(fn_node)
        if self._loops.repeated(call, (fn_node, name_node)):  # once per turn of the loop
            landings = landings * 2
        self._found_all(
            Registration(
                server,
                "tool",
                fn,
                where,
                where_scope,
                text_value(self.names, *named),
                module.span(call),
                form,
                # `name=None` a loop takes (`map(mcp.add_tool, FNS, (None, "x"))`): the function's
                name_node=named[1] if is_none(named[1]) or collector is not None else name_node,
                returns=returns,
                collector=collector,
            )
            for fn, where, where_scope, named in landings
        )

    def _constructed(self, module: ParsedModule, call: ast.Call, scope: Scope | None) -> None:
        """`MCPServer("x", tools=[Tool.from_function(fn, name="t")])`: each tool listed, read as
        `add_tool` on the server the call makes (`constructor_tools.py`): the name it is bound
        to, or the call itself (`register(MCPServer(...))`); then those of the `Apps` instances
        its `extensions=` lists (`extension_tools.py`)."""
        listed, notes, loops = constructor_tools(self.names, module, call, scope)
        self.unfollowed += notes
        # `return MCPServer(..., tools=[...])` in a plain function: the factory's own server,
        # whose tools land on each server its calls make (`called_servers`, `factory_results`).
        returned = self.servers.of(module, call, scope) if call is self._returning else None
        if listed and call is self._returning and not (isinstance(returned, Server) and returned.local):
            self.unfollowed.append(unread(module, call, "the server made there is returned"))
            return
        bound = self._assigned
        server = (
            self.servers.of_value(Value(module, call, bound[1], None, scope))
            if bound is not None and bound[0] is call
            else self.servers.of(module, call, scope)
        )
        start = len(self.found)
        with ExitStack() as inside:  # `[Tool.from_function(f) for f in TOOLS]`: its loops
            for loop in loops:
                inside.enter_context(self._loops.entered(module, loop, scope))
            for made, fn_node, name_node in listed:
                if server is not None:
                    self._added(server, module, scope, made, fn_node, name_node, form="listed")
        if loops:  # each value's tool: the constructor keeps the last of a name, not the first
            self.found[start:] = as_kept(
                self.found[start:], lambda reg: reg.name or written_name(reg.name_node)
            )
        if server is None:
            return
        for given in self.extensions.given(module, call, scope):  # (after the listed tools, as added)
            self._found(
                given.registration(server, text_value(self.names, given.module, given.name_node, given.scope))
            )

    def _call(self, module: ParsedModule, call: ast.Call, scope: Scope | None) -> None:
        if isinstance(call.func, ast.Attribute) and call.func.attr == "remove_tool":
            self._removes(module, call.func.value, scope)
            return
        if any(k.arg in ("tools", "extensions") for k in call.keywords) and self.servers.is_call(
            module, call, scope
        ):
            self._constructed(module, call, scope)
            return
        returns = call is self._returning
        func = self.aliases.called(module, self.aliases.alias_of(module, call.func, scope), scope)
        if func is not call.func and isinstance(func, ast.Attribute):
            call = calling(func, call)
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "tool"
            and call.args
            and passes_function(call.args[0])
        ):
            server = self._server_of(module, func, scope, module.span(call), (call, call.args[0]))
            if (
                server is not None
                and isinstance(call.args[0], ast.Name)
                and self._unlisted(module, call.args[0], call)
            ):
                return
            if server is not None:  # `mcp.tool(fn)`: the function lands where the name goes (T9)
                self._found(
                    Registration(
                        server,
                        "tool",
                        call.args[0],
                        module,
                        scope,
                        None,
                        module.span(call),
                        "uncalled_decorator",
                        returns=returns,
                    )
                )
            return
        if isinstance(func, ast.Attribute) and func.attr == "add_tool":
            call = spelt_out(call, ADDED, self.names, module, scope)  # `mcp.add_tool(**config)`
        fn_node = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "fn"), None)
        if isinstance(func, ast.Attribute) and func.attr == "add_tool" and fn_node is not None:
            server = self._server_of(module, func, scope, module.span(call), (call, fn_node))
            if server is not None:
                self._added(server, module, scope, call, fn_node, name_argument(call, 1), returns)
            return
        if (  # `mcp.tool(name=...)(fn)`: the decorator applied by a plain call
            isinstance(func, ast.Call)
            and isinstance(func.func, ast.Attribute)
            and func.func.attr in REGISTRARS
            and call.args
            and (server := self._server_of(module, func.func, scope, module.span(call), (func, call.args[0])))
            is not None
        ):
            first = name_argument(spelt_out(func, APPLIED, self.names, module, scope))
            if isinstance(call.args[0], ast.Name) and self._unlisted(module, call.args[0], call):
                return
            self._found_all(
                Registration(
                    server,
                    func.func.attr,
                    fn,
                    where,
                    where_scope,
                    text_value(self.names, *named) if func.func.attr == "tool" else None,
                    module.span(call),
                    "applied",
                    name_node=named[1] if func.func.attr == "tool" else None,
                    returns=returns,
                    registrar=func,
                    collector=self._loops.collector(self._loops.aliases.unaliased(call.args[0])),
                )
                for fn, where, where_scope, named in self._loops.each(
                    module, scope, self._loops.aliases.unaliased(call.args[0]), first
                )
            )
            return


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)

_COMPOUND = tuple(
    getattr(ast, name)
    for name in ("If", "For", "AsyncFor", "While", "With", "AsyncWith", "Try", "TryStar", "Match")
    if hasattr(ast, name)
)
"""The statements with blocks of statements inside (definitions are scanned on their own)."""
