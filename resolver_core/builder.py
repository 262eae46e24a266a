"""The static builder: source files in, `Graph` out — nothing imported, nothing run.

It finds servers (`X = MCPServer(...)`, and parameters annotated `MCPServer` in
`register(server)` functions, linked to their call sites), tools
(`@server.tool()`, `@server.tool("name")`, `@server.tool(name=...)`, bare
`@server.tool`, `server.add_tool(fn, name=...)`), prompts and resources, and
classifies every tool parameter in the order `Tool.from_function` does:
Context first, then `Resolve` markers, the rest are the published arguments.
"""

from __future__ import annotations

import ast
import bisect
import os
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .callables import (
    Classes,
    ResolverFactory,
    class_scope,
    function_params,
    is_context_for_tool,
    returns_of,
    wants_union,
    written_parameter,
)
from .decorators import Obj, is_registration, replaced, written_chain
from .discovery import GivenFiles, SourceFile, discover
from .import_time import ImportTime, child_blocks, literal_loop
from .model import Finding, Graph, Handler, Parameter, Server, SourceInfo, Span, Tool
from .project import Project
from .search_roots import default_roots, given_folders
from .source import ParsedModule, deep_recursion_guard, regular_bytes, without_cyclic_gc
from .symbols import Binding, Defined, External, Names, Param, Scope, Value, sdk_name
from .text_scan import calls_on_lines, might_contribute, passed_lines
from .typeexpr import Evaluator, TClass, TMeta, first_error, resolve_marker

REGISTRARS = {"tool": "tool", "prompt": "prompt", "resource": "resource"}
TOO_DEEP = (
    "cannot analyse this registration: it is nested too deeply "
    "(an expression or a chain of resolvers thousands of levels deep)"
)


@dataclass(slots=True)
class _Registration:
    server: Server | _ParamServer
    kind: str
    fn: ast.expr | ast.FunctionDef | ast.AsyncFunctionDef
    module: ParsedModule
    scope: Scope | None
    name: str | None
    span: Span
    bare: bool = False
    decorator: ast.expr | None = None
    """The `@server.tool()` decorator itself, when the registration is one."""
    name_node: ast.expr | None = None
    """The `name=` expression of `add_tool`, when it is not a literal the scan could read."""


@dataclass(slots=True)
class _ToolFunction:
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


@dataclass(slots=True)
class _ParamServer:
    """A server that is a function parameter (`def register(server: MCPServer)`)."""

    module: ParsedModule
    function: ast.FunctionDef | ast.AsyncFunctionDef
    index: int
    name: str


EXPLICIT_DATA_LIMIT = 1 << 20
"""Bytes past which a file named on the command line that cannot declare a server, a tool or a
resolver (`might_contribute`) is not parsed for its syntax alone: pre-commit names data files
too, and Python's parser takes about 100 bytes of memory and 1 us per byte of a literal (a 13 MB
list: over 1 GB and several seconds, for nothing mcpdeps checks; ruff reports its syntax)."""


class StaticBuilder:
    """Builds one `Graph` from a set of files; see `build_graph`."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.names = Names(project)
        self.evaluator = Evaluator(self.names)
        self.classes = Classes(self.evaluator)
        self.factory = ResolverFactory(self.names, self.evaluator, self.classes)
        self.graph = Graph()
        self._servers: dict[str, Server] = {}
        self._registrations: list[_Registration] = []
        self._loop_items: dict[str, list[ast.expr]] = {}
        self._tokens: tuple[str, ...] = (".tool(", "add_tool")
        self._token_lines: list[int] = []
        """Lines of the module being scanned that mention one of `_tokens`, in order."""
        self._marked: list[int] | None = None
        """Lines of the module being scanned with a token or a `@` (a decorator): a block
        without one registers nothing, so its statements are not visited. None: visit all."""
        self._scanned: list[ParsedModule] = []
        self._scanned_paths: set[Path] = set()
        self._passed_by: dict[str, str] = {}
        """Module scanned because a server was passed to one of its functions -> the file passing it."""
        self.import_time = ImportTime(
            self.names, self.factory.decorators, self.factory._method, self._scanned
        )

    # ---------------------------------------------------------------- servers
    def server_for(
        self, module: ParsedModule, expr: ast.expr, scope: Scope | None
    ) -> Server | _ParamServer | None:
        """The server an expression like `mcp` or `app.server.mcp` denotes, if any."""
        symbol = self.names.resolve(module, expr, scope)
        symbol = self.names.follow(symbol) if symbol is not None else None
        if isinstance(symbol, Value):
            origin = self._server_origin(symbol.module, symbol.node, symbol.scope, symbol.annotation)
            if origin is not False:
                return self._server(symbol.module, symbol.name, symbol.node, origin)
        if isinstance(symbol, Param):
            fn = symbol.function
            ann = symbol.node.annotation
            if ann is not None and self._is_server_annotation(symbol.module, ann):
                params = [a for a, *_ in function_params(fn)]
                return _ParamServer(symbol.module, fn, params.index(symbol.node), symbol.node.arg)
        return None

    def _is_server_call(self, module: ParsedModule, node: ast.AST, scope: Scope | None) -> bool:
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

    def _server_origin(
        self, module: ParsedModule, node: ast.AST, scope: Scope | None, annotation: ast.expr | None
    ) -> ast.Call | bool:
        """Whether a bound value is a server; if so the `MCPServer(...)` call that names it, or True.

        `MCPServer(...)` itself, a variable annotated `MCPServer`, or a call of a project factory
        annotated `-> MCPServer` or returning `MCPServer(...)`. False when it is no server.
        """
        if self._is_server_call(module, node, scope):
            assert isinstance(node, ast.Call)
            return node
        factory_call: ast.Call | None = None
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
                        if isinstance(r.value, ast.Call)
                        and self._is_server_call(symbol.module, r.value, None)
                    ),
                    None,
                )
                if factory_call is not None:
                    return factory_call
                if fn.returns is not None and self._is_server_annotation(symbol.module, fn.returns):
                    return True
        return annotation is not None and self._is_server_annotation(module, annotation)

    def _is_server_annotation(self, module: ParsedModule, ann: ast.expr) -> bool:
        if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
            try:
                ann = ast.parse(ann.value, mode="eval").body
            except SyntaxError:
                return False
        return sdk_name(self.names.canonical(module, ann)) == "MCPServer"

    def _server(self, module: ParsedModule, variable: str, site: ast.AST, origin: ast.Call | bool) -> Server:
        sid = f"{module.name}:{variable}"
        key = f"{module.path}:{variable}"  # module names repeat across source roots; paths do not
        if key not in self._servers:
            call = origin if isinstance(origin, ast.Call) else None
            first = (
                (
                    call.args[0]
                    if call.args
                    else next((k.value for k in call.keywords if k.arg == "name"), None)
                )
                if call is not None
                else None
            )
            name = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
            server = Server(sid, name, variable, module.name, module.display, module.span(site))
            self._servers[key] = server
            self.graph.servers.append(server)
        return self._servers[key]

    # ----------------------------------------------------------- registrations
    def scan(self, module: ParsedModule) -> None:
        """Find servers, registrations and call sites in one module (all scopes)."""
        if module.tree is None or module.path in self._scanned_paths:
            return  # scanned already: as a given file, or for a server passed into it
        self._scanned.append(module)
        self._scanned_paths.add(module.path)
        table = self.names.table(module)
        for name, binding in table.items():
            if binding.kind == "value":
                origin = self._server_origin(module, binding.node, None, binding.annotation)
                if origin is not False:
                    self._server(module, name, binding.node, origin)
        text = module.text or ""
        # Walking every expression for calls is the costliest part of a scan: only do it
        # where a registration call can appear at all (also through `register = mcp.add_tool`).
        self._tokens = (
            ".tool(",
            "add_tool",
            *(f"{name}(" for name in self._registrar_aliases(module, table)),
        )
        calls = any(t in text for t in self._tokens)
        self._token_lines = _lines_with(module, self._tokens) if calls else []
        # Line numbers as `splitlines` counts them, which is how `ast` counts them unless the
        # text has a separator only `splitlines` knows (a form feed): then every block is visited.
        self._marked = (
            None
            if _OTHER_LINE_BREAKS.search(text)
            else sorted({*self._token_lines, *_lines_with(module, ("@",))})
            if "@" in text
            else self._token_lines
        )
        self._scan_body(module, module.tree.body, None, calls)
        self._follow_servers_passed(module, table, text)

    def _follow_servers_passed(self, module: ParsedModule, table: dict[str, Binding], text: str) -> None:
        """`tools.register(mcp)`: a server passed to a function of another project module.

        That module registers tools on the server, so it is scanned too, even when only this
        file was given (pre-commit passes `server.py` alone when only it changed); its tools'
        verdicts belong to this file (`Tool.origin`) unless that module is given itself.
        Only calls passing a module-level name as a whole argument are looked at, and only
        in text that has one (`(mcp)`, `(mcp, ...)`, `server=mcp`): resolving every call of
        every file would cost more than the scan itself. Only the statements whose lines
        can hold such a call are walked (`text_scan.passed_lines`): walking whole trees
        was most of a cold run.
        """
        names = [n for n, b in table.items() if b.kind in ("value", "import") and n in text]
        if not names or module.tree is None:
            return
        lines = passed_lines(text, names)
        if lines is None:  # a text the lines cannot be told from: the whole tree, as written
            passed = re.compile(r"[(,=]\s*(" + "|".join(map(re.escape, names)) + r")\s*[,)]")
            if not passed.search(text):
                return
        elif not lines:
            return
        for node in calls_on_lines(module.tree, lines):
            args = [*node.args, *(k.value for k in node.keywords)]
            if not any(isinstance(a, ast.Name) and a.id in table for a in args):
                continue
            if not any(
                isinstance(self.server_for(module, a, None), Server) for a in args if isinstance(a, ast.Name)
            ):
                continue
            callee = self.names.resolve(module, node.func, None)
            callee = self.names.follow(callee) if callee is not None else None
            if (
                isinstance(callee, Defined)
                and callee.module is not module
                and callee.module.path not in self._scanned_paths
                and isinstance(callee.node, ast.FunctionDef | ast.AsyncFunctionDef)
            ):
                self._passed_by.setdefault(callee.module.display, module.display)
                self.scan(callee.module)

    def _scan_body(
        self, module: ParsedModule, body: Iterable[ast.stmt], scope: Scope | None, calls: bool
    ) -> None:
        for stmt in body:
            if isinstance(stmt, _FUNCTIONS):
                if stmt.decorator_list:
                    self._decorated(module, stmt, scope)
                if self._may_register(stmt):
                    inner = self._scope_of(module, stmt, scope)
                    self._scan_body(module, stmt.body, inner, calls)
            elif isinstance(stmt, ast.ClassDef):
                continue
            else:
                if calls and _mentions_registration(stmt, self._token_lines):
                    for node in _walk_no_defs(stmt):
                        if isinstance(node, ast.Call):
                            self._call(module, node, scope)
                if not isinstance(stmt, _COMPOUND) or not self._may_register(stmt):
                    continue  # most statements: no block to look into
                loop = literal_loop(stmt)
                if loop is not None:
                    self._loop_items[loop[0]] = loop[1]
                for child in child_blocks(stmt):
                    self._scan_body(module, child, scope, calls)
                if loop is not None:
                    del self._loop_items[loop[0]]

    def _may_register(self, stmt: ast.stmt) -> bool:
        """Whether a statement's lines hold a registration token or a decorator (`_marked`)."""
        return self._marked is None or _mentions_registration(stmt, self._marked)

    def _scope_of(
        self, module: ParsedModule, fn: ast.FunctionDef | ast.AsyncFunctionDef, parent: Scope | None
    ) -> Scope:
        qual = f"{parent.qualname}.<locals>.{fn.name}" if parent else fn.name
        return Scope(module, fn, qual, parent)

    def _decorated(
        self, module: ParsedModule, fn: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope | None
    ) -> None:
        for written in fn.decorator_list:
            deco = self._alias_of(module, written, scope)
            call = deco if isinstance(deco, ast.Call) else None
            target = call.func if call is not None else deco
            if not isinstance(target, ast.Attribute) or target.attr not in REGISTRARS:
                continue
            server = self.server_for(module, target.value, scope)
            if server is None:
                continue
            name = None
            if call is not None:
                arg = (
                    call.args[0]
                    if call.args
                    else next((k.value for k in call.keywords if k.arg == "name"), None)
                )
                if target.attr == "tool" and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    name = arg.value
            self._registrations.append(
                _Registration(
                    server,
                    target.attr,
                    fn,
                    module,
                    scope,
                    name,
                    module.span(written),
                    bare=call is None,
                    decorator=written,
                )
            )

    def _registrar_aliases(self, module: ParsedModule, table: dict[str, Binding]) -> list[str]:
        """Module-level names bound to `x.tool(...)` or `x.add_tool`."""
        out = []
        for name, binding in table.items():
            node = binding.node
            target = node.func if isinstance(node, ast.Call) else node
            if (
                binding.kind == "value"
                and isinstance(target, ast.Attribute)
                and target.attr in ("tool", "add_tool")
            ):
                out.append(name)
        return out

    def _alias_of(self, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> ast.expr:
        """`deco = mcp.tool()` / `register = mcp.add_tool`: what a plain name used there stands for."""
        if isinstance(expr, ast.Name):
            symbol = self.names.lookup(module, expr.id, scope)
            if isinstance(symbol, Value) and isinstance(symbol.node, ast.Call | ast.Attribute):
                node = symbol.node
                target = node.func if isinstance(node, ast.Call) else node
                if isinstance(target, ast.Attribute) and target.attr in (*REGISTRARS, "add_tool"):
                    return node
        return expr

    def _call(self, module: ParsedModule, call: ast.Call, scope: Scope | None) -> None:
        func = self._alias_of(module, call.func, scope)
        if func is not call.func and isinstance(func, ast.Attribute):
            call = ast.Call(
                func=func,
                args=call.args,
                keywords=call.keywords,
                lineno=call.lineno,
                col_offset=call.col_offset,
                end_lineno=call.end_lineno,
                end_col_offset=call.end_col_offset,
            )
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "tool"
            and call.args
            and _is_callable_arg(call.args[0])
        ):
            server = self.server_for(module, func.value, scope)
            if server is not None:  # `mcp.tool(fn)`: the function lands where the name goes (T9)
                self._registrations.append(
                    _Registration(
                        server, "tool", call.args[0], module, scope, None, module.span(call), bare=True
                    )
                )
            return
        fn_node = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "fn"), None)
        if isinstance(func, ast.Attribute) and func.attr == "add_tool" and fn_node is not None:
            server = self.server_for(module, func.value, scope)
            if server is not None:
                name_node = (
                    call.args[1]
                    if len(call.args) > 1
                    else next((k.value for k in call.keywords if k.arg == "name"), None)
                )
                name = (
                    name_node.value
                    if isinstance(name_node, ast.Constant) and isinstance(name_node.value, str)
                    else None
                )
                # `for fn in (a, b): mcp.add_tool(fn)` registers each listed function.
                functions = (
                    self._loop_items.get(fn_node.id, [fn_node])
                    if isinstance(fn_node, ast.Name)
                    else [fn_node]
                )
                self._registrations.extend(
                    _Registration(
                        server, "tool", fn, module, scope, name, module.span(call), name_node=name_node
                    )
                    for fn in functions
                )
            return
        if (  # `mcp.tool(name=...)(fn)`: the decorator applied by a plain call
            isinstance(func, ast.Call)
            and isinstance(func.func, ast.Attribute)
            and func.func.attr in REGISTRARS
            and call.args
            and (server := self.server_for(module, func.func.value, scope)) is not None
        ):
            first = (
                func.args[0] if func.args else next((k.value for k in func.keywords if k.arg == "name"), None)
            )
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            name = first.value if literal and func.func.attr == "tool" else None  # type: ignore[union-attr]
            self._registrations.append(
                _Registration(server, func.func.attr, call.args[0], module, scope, name, module.span(call))
            )
            return

    def _expand(self, reg: _Registration) -> list[Server]:
        """The concrete servers a registration lands on (param servers via call sites)."""
        if isinstance(reg.server, Server):
            return [reg.server]
        ps = reg.server
        self.graph.param_registrations.add(reg.module.display)
        out: list[Server] = []
        for module, call, scope in self.import_time.sites(ps.function):
            arg = (
                call.args[ps.index]
                if ps.index < len(call.args)
                else next((k.value for k in call.keywords if k.arg == ps.name), None)
            )
            if arg is not None:
                server = self.server_for(module, arg, scope)
                if isinstance(server, Server) and server not in out:
                    out.append(server)
        if not out:
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
            out.append(self._servers[sid])
        return out

    # ------------------------------------------------------------------ tools
    def _function_of(self, reg: _Registration) -> _ToolFunction | None:
        """The function a registration names (a def, a lambda, a bound method, an alias),
        after the decorators Python applied before the registration saw it."""
        fn = reg.fn
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            qual = f"{reg.scope.qualname}.<locals>.{fn.name}" if reg.scope else fn.name
            found = _ToolFunction(reg.module, fn, qual, reg.scope)
            below = (
                fn.decorator_list[fn.decorator_list.index(reg.decorator) + 1 :]
                if (reg.decorator in fn.decorator_list)
                else []
            )
            found.decorators = tuple(
                written_chain(
                    reg.module.text,
                    fn,
                    for_tool=True,
                    registrar=lambda d: is_registration(self._alias_of(reg.module, d, reg.scope)),
                )
            )
            if not below:
                return found
            obj = self.factory.decorators.below(Defined(reg.module, fn, qual), reg.scope, below)
            chain = found.decorators
            return self._decorated_tool(obj, found, chain)
        if isinstance(fn, ast.Lambda):
            return _ToolFunction(reg.module, fn, "<lambda>", reg.scope)
        if isinstance(fn, ast.Attribute):
            bound = self.factory.bound_method(reg.module, fn, reg.scope)
            if bound is not None and isinstance(bound.node, ast.FunctionDef | ast.AsyncFunctionDef):
                return _ToolFunction(
                    bound.module, bound.node, bound.qualname, None, bound.skip, bound.is_async
                )
        if isinstance(fn, ast.Call):  # `mcp.add_tool(deco(g))`
            obj = self.factory.decorators.expr(reg.module, fn, reg.scope, {}, 0)
            return self._decorated_tool(obj, None, ())
        symbol = self.names.resolve(reg.module, fn, reg.scope)
        symbol = self.names.follow(symbol) if symbol is not None else None
        if isinstance(symbol, Defined) and isinstance(symbol.node, ast.FunctionDef | ast.AsyncFunctionDef):
            found = _ToolFunction(symbol.module, symbol.node, symbol.qualname, None)
            if not symbol.node.decorator_list:
                return found
            obj = self.factory.decorators.applied(symbol, None)
            chain = (
                ()
                if replaced(obj, symbol.node)
                else tuple(written_chain(symbol.module.text, symbol.node, for_tool=False))
            )
            return self._decorated_tool(obj, found, chain)
        if isinstance(symbol, Defined) and isinstance(symbol.node, ast.Lambda):
            return _ToolFunction(symbol.module, symbol.node, symbol.qualname, None)
        if isinstance(symbol, Value) and isinstance(symbol.node, ast.Lambda):
            return _ToolFunction(symbol.module, symbol.node, "<lambda>", symbol.scope)
        if isinstance(symbol, Value) and isinstance(symbol.node, ast.Call):  # `t = deco(g)`
            obj = self.factory.decorators.value(symbol)
            return self._decorated_tool(obj, None, ())
        return None

    def _decorated_tool(
        self, obj: Obj, written: _ToolFunction | None, chain: tuple[str, ...]
    ) -> _ToolFunction | None:
        """The registered object: its signature (through `__wrapped__`), name and async-ness."""
        inner, named = obj.innermost, obj.named
        if (
            obj.kind == "opaque"
            or inner.module is None
            or inner.kind not in ("function", "lambda", "instance")
        ):
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
        return _ToolFunction(
            inner.module,
            node,
            qualname,
            scope,
            1 if inner.kind == "instance" else 0,
            obj.is_async,
            chain,
        )

    def _through_parameter(self, reg: _Registration) -> list[_Registration]:
        """`def tool(fn): mcp.add_tool(fn); return fn`: registers what each import-time use of
        the function passes in (the def it decorates, or a call's argument)."""
        if reg.scope is None or not isinstance(reg.fn, ast.Name):
            return []
        symbol = self.names.lookup(reg.module, reg.fn.id, reg.scope)
        fn = reg.scope.function
        if not isinstance(symbol, Param) or symbol.function is not fn:
            return []
        params = [a for a, *_ in function_params(fn)]  # type: ignore[arg-type]
        index = params.index(symbol.node)
        out = [
            _Registration(
                reg.server,
                reg.kind,
                deco_def,
                module,
                scope,
                reg.name or self._factory_argument(reg, written),
                reg.span,
                decorator=written,
            )
            for module, deco_def, written, scope in self.import_time.applications(fn)
            if index == 0
        ]
        for module, call, scope in self.import_time.sites(fn):
            arg = call.args[index] if index < len(call.args) else None
            if arg is not None:
                out.append(_Registration(reg.server, reg.kind, arg, module, scope, reg.name, reg.span))
        return out

    def _factory_argument(self, reg: _Registration, written: ast.expr) -> str | None:
        """`@named("beta")` where the factory's parameter is the `name=` of its `add_tool`."""
        node = reg.name_node
        outer = reg.scope.parent if reg.scope is not None else None
        if not isinstance(node, ast.Name) or outer is None or not isinstance(written, ast.Call):
            return None
        symbol = self.names.lookup(reg.module, node.id, reg.scope)
        if not isinstance(symbol, Param) or symbol.function is not outer.function:
            return None
        params = [a.arg for a, *_ in function_params(outer.function)]  # type: ignore[arg-type]
        index = params.index(symbol.node.arg)
        value = (
            written.args[index]
            if index < len(written.args)
            else next((k.value for k in written.keywords if k.arg == symbol.node.arg), None)
        )
        return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None

    def build_tools(self) -> None:
        expanded = [r for reg in self._registrations for r in self._through_parameter(reg)]
        for reg in [*self._registrations, *expanded]:
            if reg.scope is not None:
                # Which functions run at import depends on every caller, wherever it is: an
                # incremental run re-checks everything (as for `register(server)` functions).
                self.graph.param_registrations.add(reg.module.display)
                if not self.import_time.runs(reg.scope.function):
                    continue  # defined, never called while importing: never registered
            found = self._function_of(reg)
            if found is None:
                continue
            origin = self._passed_by.get(reg.module.display)
            for server in self._expand(reg):
                try:
                    if reg.kind == "tool":
                        tool = self._tool(reg, found)
                        if origin is not None and reg.module.display not in self.graph.checked:
                            tool.origin = origin
                        server.tools.append(tool)
                    else:
                        server.handlers.append(self._handler(reg, found))
                except RecursionError:
                    # An expression thousands of levels deep (`int | int | ...`, `a + a + ...`):
                    # report this registration and go on with the others.
                    self.graph.findings.append(
                        Finding("MCPD000", TOO_DEEP, reg.span, reg.name if reg.kind == "tool" else None)
                    )

    def _params(
        self,
        module: ParsedModule,
        fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
        scope: Scope | None,
        skip: int = 0,
    ) -> tuple[list[Parameter], str | None]:
        """Parameters with their evaluated annotations, and the first hint that cannot be evaluated."""
        params: list[Parameter] = []
        error: str | None = None
        for arg, variadic, posonly, default in function_params(fn)[skip:]:
            t = self.evaluator.annotation(module, arg.annotation, scope)
            err = first_error(t)
            if err is not None and error is None:
                error = f"the annotation of {arg.arg!r} cannot be evaluated ({err.reason})"
            param = written_parameter(module, arg, variadic, posonly, default, t)
            param.alias = _alias(t, default, self.names, module, scope)
            params.append(param)
        return params, error

    def _tool(self, reg: _Registration, target: _ToolFunction) -> Tool:
        """Classify a tool as its registration sees the module: names bound by then, not later."""
        cutoff = self._cutoff(reg)
        outer, self.names.cutoff = (
            self.names.cutoff,
            (reg.module, cutoff) if cutoff is not None else None,
        )
        try:
            return self._classify_tool(reg, target)
        finally:
            self.names.cutoff = outer

    def _classify_tool(self, reg: _Registration, target: _ToolFunction) -> Tool:
        module, fn, qual, scope = target.module, target.node, target.qualname, target.scope
        with self.names.tracing() as needs:
            params, hints_error = self._params(module, fn, scope, target.skip)
            returns = (
                None if isinstance(fn, ast.Lambda) else self.evaluator.annotation(module, fn.returns, scope)
            )
        if hints_error is None and (err := first_error(returns)) is not None:
            hints_error = f"the return annotation cannot be evaluated ({err.reason})"
        cutoff = self._cutoff(reg)
        late = needs.get(reg.module.path) if cutoff is not None else None
        if hints_error is None and late is not None and cutoff is not None and late[0] >= cutoff:
            hints_error = _late_reason(late, cutoff, "the tool")
        is_lambda = isinstance(fn, ast.Lambda)
        name = reg.name or (qual.rpartition(".")[2] if not is_lambda else "<lambda>")
        span = Span(module.display, fn.lineno, fn.col_offset + 1, fn.lineno, fn.col_offset + 1)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            span = module.span(fn)
            span = Span(span.path, fn.lineno, fn.col_offset + 1, fn.lineno, fn.col_offset + 1)
        tool = Tool(
            name=name,
            function=qual,
            module=module.name,
            span=span,
            registration=reg.span,
            is_async=target.is_async if target.is_async is not None else isinstance(fn, ast.AsyncFunctionDef),
            return_type=returns,
            hints_error=hints_error,
            bare_decorator=reg.bare,
            lambda_without_name=is_lambda and reg.name is None,
            node=fn,
            decorators=target.decorators,
        )
        if target.opaque is not None:
            self.graph.findings.append(
                Finding(
                    "MCPD113",
                    f"tool {name!r}: {target.opaque}; its parameters are read from the function as written",
                    reg.span,
                    name,
                )
            )
        if hints_error is None:
            tool.context = next((p.name for p in params if is_context_for_tool(p.type, self.classes)), None)
            for p in params:
                marker = resolve_marker(p.type)
                if marker is not None:
                    p.kind = "resolved"
                    p.resolver = self.factory.get(marker).id
                    p.wants_union = wants_union(p.type)
                elif p.name == tool.context:
                    p.kind = "context"
        tool.parameters = params
        if cutoff is not None:
            self._mark_late_resolvers(tool, str(reg.module.path), cutoff)
        return tool

    def _cutoff(self, reg: _Registration) -> int | None:
        """The line at which a module-level registration runs (None inside functions)."""
        if reg.scope is not None:
            return None
        fn = reg.fn
        return fn.lineno if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) else reg.span.line

    def _mark_late_resolvers(self, tool: Tool, path: str, cutoff: int) -> None:
        """Resolvers whose hints name something the registering module binds only later."""
        stack = [p.resolver for p in tool.parameters if p.resolver]
        seen: set[str] = set()
        while stack:
            rid = stack.pop()
            if rid is None or rid in seen or rid not in self.factory.resolvers:
                continue
            seen.add(rid)
            resolver = self.factory.resolvers[rid]
            late = resolver.needs.get(path)
            if late is not None and late[0] >= cutoff and not resolver.hints_error:
                tool.late_resolvers[rid] = _late_reason(late, cutoff, f"resolver {resolver.name!r}")
                continue
            stack.extend(p.resolver for p in resolver.parameters if p.resolver)

    def _handler(self, reg: _Registration, target: _ToolFunction) -> Handler:
        params, _ = self._params(target.module, target.node, target.scope, target.skip)
        return Handler(reg.kind, target.qualname, target.module.name, reg.span, params)  # type: ignore[arg-type]


def _late_reason(late: tuple[int, str], cutoff: int, what: str) -> str:
    line, name = late
    return (
        f"the hints of {what} use {name!r}, which is bound at line {line}, after the tool is "
        f"registered at line {cutoff}"
    )


def _alias(
    t: object, default: ast.expr | None, names: Names, module: ParsedModule, scope: Scope | None
) -> str | None:
    """A `Field(alias=...)` in `Annotated` metadata or as the default."""
    from .typeexpr import TAnnotated

    if isinstance(t, TAnnotated):
        for m in t.metadata:
            if isinstance(m, TMeta) and m.callee == "Field":
                alias = dict(m.keywords).get("alias")
                if alias is not None:
                    return _unquote(alias)
    callee = names.canonical(module, default.func, scope) if isinstance(default, ast.Call) else None
    if isinstance(default, ast.Call) and callee in ("pydantic.Field", "pydantic.fields.Field"):
        kw = next((k.value for k in default.keywords if k.arg == "alias"), None)
        if isinstance(kw, ast.Constant) and isinstance(kw.value, str):
            return kw.value
    return None


def _mentions_registration(stmt: ast.stmt, token_lines: list[int]) -> bool:
    """Whether a statement's own lines can hold `x.tool(...)`/`x.add_tool(...)`: `token_lines`
    are the module's lines that mention one (found in one pass over the module's text)."""
    end = getattr(stmt, "end_lineno", None) or stmt.lineno
    at = bisect.bisect_left(token_lines, stmt.lineno)
    return at < len(token_lines) and token_lines[at] <= end


_OTHER_LINE_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
"""Line separators of `str.splitlines` that Python's tokenizer does not count as lines."""


def _lines_with(module: ParsedModule, tokens: Sequence[str]) -> list[int]:
    """The numbers of the module's lines (as `splitlines` counts them) holding one of `tokens`."""
    if not module.lines and module.text is not None:
        module.lines = module.text.splitlines()
    lines = module.lines
    if len(tokens) == 1:
        token = tokens[0]
        return [n for n, line in enumerate(lines, 1) if token in line]
    return sorted({n for token in tokens for n, line in enumerate(lines, 1) if token in line})


def _is_callable_arg(node: ast.expr) -> bool:
    """`mcp.tool(reserve)` passes a function; `mcp.tool("name")` is the normal factory call."""
    return not (isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, str)))


def _unquote(text: str) -> str | None:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def _walk_no_defs(stmt: ast.stmt) -> Iterable[ast.AST]:
    """Nodes of a simple statement (not descending into nested blocks or definitions)."""
    stack: list[ast.AST] = [stmt]
    while stack:
        cur = stack.pop()
        yield cur
        for child in ast.iter_child_nodes(cur):
            if isinstance(
                child, ast.stmt | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
            ):
                continue
            stack.append(child)


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)

_COMPOUND = tuple(
    getattr(ast, name)
    for name in ("If", "For", "AsyncFor", "While", "With", "AsyncWith", "Try", "TryStar", "Match")
    if hasattr(ast, name)
)
"""The statements with blocks of statements inside (definitions are scanned on their own)."""


def new_project(
    files: Sequence[SourceFile],
    paths: Sequence[str | os.PathLike[str]],
    cwd: Path,
    src: Sequence[str | os.PathLike[str]] = (),
    overrides: Mapping[Path, str] | None = None,
    hashing: bool = True,
) -> Project:
    """The project of a run: `default_roots`, where a given folder that is not also a project
    root (`lint case_a case_b`: two projects) is searched only by the files inside it, as
    `python case_a/server.py` never sees `case_b` on `sys.path`."""
    shared = {r.absolute() for r in default_roots(files, (), cwd, src)}
    scoped = [g for g in given_folders(paths, cwd) if g.absolute() not in shared]
    return Project(default_roots(files, paths, cwd, src), overrides, cwd, scoped=scoped, hashing=hashing)


def build_graph(
    paths: Sequence[str | os.PathLike[str]],
    *,
    src: Sequence[str | os.PathLike[str]] = (),
    exclude: Sequence[str] = (),
    source_overrides: Mapping[Path, str] | None = None,
    cwd: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    files: Sequence[SourceFile] | GivenFiles | None = None,
    only: Collection[Path] | None = None,
    project: Project | None = None,
    hashing: bool = True,
) -> Graph:
    """Build the static graph of every server, tool and resolver reachable from `paths`.

    `progress(done, total)` is called as files are read (for a progress bar); `files` is
    `discover(paths, exclude, cwd)` when the caller already ran it (no second walk). With
    `only` (absolute paths), just those given files are read and scanned: the others still
    count as given (for display and for what an incremental run keeps from the last one).
    `project`: modules a caller already parsed from the same roots (not parsed again).
    `files` as `GivenFiles`: a caller building slice after slice of the same files indexes
    them once. `hashing=False`: no content hash is taken (`Graph.digests` holds none), for a
    run that keeps no state to compare them with next time (`lint --no-cache`).
    """
    deep_recursion_guard()
    with without_cyclic_gc():
        return _build_graph(
            paths,
            src=src,
            exclude=exclude,
            source_overrides=source_overrides,
            cwd=cwd,
            progress=progress,
            files=files,
            only=only,
            project=project,
            hashing=hashing,
        )


def _build_graph(
    paths: Sequence[str | os.PathLike[str]],
    *,
    src: Sequence[str | os.PathLike[str]],
    exclude: Sequence[str],
    source_overrides: Mapping[Path, str] | None,
    cwd: Path | None,
    progress: Callable[[int, int], None] | None,
    files: Sequence[SourceFile] | GivenFiles | None,
    only: Collection[Path] | None,
    project: Project | None,
    hashing: bool,
) -> Graph:
    cwd = cwd or Path.cwd()
    if not isinstance(files, GivenFiles):
        files = GivenFiles(list(files) if files is not None else discover(paths, exclude, cwd))
    project = project or new_project(files.files, paths, cwd, src, source_overrides, hashing=hashing)
    project.set_displays(files.displays)
    builder = StaticBuilder(project)
    graph = builder.graph
    graph.files = len(files)
    graph.checked = set(files.checked)
    modules: list[ParsedModule] = []
    reported = 0
    for at in files.picked(only):
        if progress is not None and (at + 1) // 64 > reported:
            reported = (at + 1) // 64
            progress(reported * 64, len(files))
        f, path = files.files[at], files.paths[at]
        data: bytes | None = None
        if not project.overrides or path not in project.overrides:
            data = regular_bytes(path)
            # Files named explicitly are parsed (a syntax error there is reported, as ruff does)
            # unless they are data: too large to be read for a syntax error alone. Files found by
            # walking a folder are parsed only if they can contribute.
            skip = not f.explicit or len(data or b"") > EXPLICIT_DATA_LIMIT
            if data is not None and skip and not might_contribute(data):
                project.note_read(path, data)
                continue
        module = project.load_path(path, data)
        modules.append(module)
        if module.error is not None:
            graph.findings.append(module.error)
    for module in modules:
        builder.scan(module)
    builder.build_tools()
    graph.resolvers = builder.factory.resolvers
    graph.evaluator = builder.evaluator
    graph.imports = project.edges
    graph.probes = project.probes
    graph.digests = project.digests
    for module in project.modules:
        graph.sources[module.display] = SourceInfo(
            module.name, module.display, module.tree is not None, module.text
        )
    graph.findings.sort(key=lambda f: (f.span.path, f.span.line, f.span.column))
    return graph


__all__ = ["Finding", "build_graph"]
