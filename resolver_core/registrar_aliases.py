"""Names bound to a server's registration methods, read as the methods themselves.

`tool = mcp.tool` then `@tool()`, `register = mcp.add_tool` then `register(fn)`, `deco =
mcp.tool(name="x")` then `@deco`, `read_only = functools.partial(mcp.tool, annotations=...)` then
`@read_only()`: the SDK registers as if `mcp.tool()` / `mcp.add_tool(fn)` were written where the
name is used (with the partial's arguments first). The registration scan (`registrations.py`) asks what a name it
meets stands for; `reach.py` asks which uses the scan reads itself (`reads`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from .import_scan import may_import_name
from .model import Server
from .servers import ParamServer, Servers
from .source import ParsedModule, regular_bytes
from .symbols import Binding, Names, Scope, Value
from .written_decorators import REGISTRARS


class RegistrarAliases:
    """What a name bound to `x.tool`, `x.tool(...)` or `x.add_tool` stands for where it is used."""

    def __init__(self, names: Names, servers: Servers) -> None:
        self.names = names
        self.servers = servers
        self._homes: dict[int, tuple[ast.expr, ParsedModule]] = {}
        """A method bound to a name of another module (`tool = mcp.tool` in `app/server.py`) ->
        that module and scope, where its server is read (`server_of`)."""
        self._partials: dict[int, tuple[ast.Attribute, ast.Call]] = {}
        """A method a module-level `functools.partial(mcp.tool, ...)` binds -> that call."""

    def module_level(self, module: ParsedModule, table: dict[str, Binding]) -> list[str]:
        """Module-level names bound to `x.tool(...)` or `x.add_tool`, or imported under the
        method's name (`from app.server import tool`, then `tool()(fn)`): told by the import's
        text alone, so that the lines calling them are scanned without resolving every import;
        or imported under another name and called at a line's start (`from app.server import
        register as add`, then `add(fn)`), where the import is resolved (`_imported_method`)."""
        out = []
        for name, binding in table.items():
            node = binding.node
            if binding.kind == "import":
                attr = binding.target[1] if binding.target is not None else None
                if attr in _METHODS or (attr and self._imported_method(module, name, binding)):
                    out.append(name)
            elif binding.kind == "value" and isinstance(_bound_method(node), ast.Attribute):
                out.append(name)  # `add = mcp.add_tool`, `tool = mcp.tool(...)`, `partial(mcp.tool, ...)`
        return out

    def _imported_method(self, module: ParsedModule, name: str, binding: Binding) -> bool:
        """Whether an imported `name`, called at the start of a line of `module` (as a helper
        `register(mcp)` is, whose module the call sites read anyway), is a server's method
        bound at another module's top level (`register = mcp.add_tool`)."""
        if not _called_at_line_start(module.text or "", name) or not self._may_bind_method(module, binding):
            return False
        symbol = self.names.lookup(module, name)
        return (
            isinstance(symbol, Value)
            and symbol.scope is None
            and _bound_method(symbol.node, called=False) is not None
        )

    def _may_bind_method(self, module: ParsedModule, binding: Binding) -> bool:
        """Whether the project module an import takes a name from may bind it to a server's
        method, told from its text when no analysis has parsed it: a module with no method
        written uncalled (`mcp.add_tool` but for `mcp.add_tool(`: `references_method`) binds no
        name to one, and one whose imports cannot bind the name does not take it from another.

        An entry point calls two hundred features' `register(mcp)` helpers, imported under
        names of their own (`register_7`): resolving each parsed every feature module, where a
        run checking a few of them follows its server into those alone (`confined.py`). The
        module is still a dependency of the entry point's verdicts, as when it was parsed."""
        if binding.target is None:
            return True
        project = self.names.project
        spec = project.spec(binding.target[0], module)
        if spec is None or spec.origin is None or not spec.source:
            return True  # not a project module: the lookup parses nothing
        path = spec.origin.absolute()
        if project.module_at(path) is not None or path in project.overrides:
            return True  # parsed already (or an editor's text): the lookup reads that
        data = regular_bytes(path)
        if data is None:
            return True
        text = data.decode("utf-8", "replace")
        attr = binding.target[1] or ""
        if references_method(text) or may_import_name(text, attr):
            return True
        project.note_read(path, data)
        project.edges.setdefault(module.path, set()).add(path)
        return False

    def in_functions(self, text: str) -> list[str]:
        """Names a function binds to a server's method (`tool = mcp.tool` in `def register(mcp)`),
        found from the text's `.tool` / `.add_tool` not followed by a call (one `find` per
        occurrence, not a pattern tried on every line): the lines calling them must be scanned."""
        out = []
        for at, end in _uncalled_methods(text):
            start = text.rfind("\n", 0, at) + 1
            stop = text.find("\n", end)
            bound = _BOUND_METHOD.match(text, start, len(text) if stop < 0 else stop)
            if bound is not None:
                out.append(bound.group(1))
        return out

    def alias_of(self, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> ast.expr:
        """`deco = mcp.tool()` / `register = mcp.add_tool`: what a plain name used there stands for.

        A name bound in this module, or the method itself bound at another's top level (`tool =
        mcp.tool` imported `from app.server`): its server is read there (`server_of`). A call's
        result imported from another module (`tool = mcp.tool()`) is that module's
        registration, found by `reach.py`."""
        if isinstance(expr, ast.Name):
            symbol = self.names.lookup(module, expr.id, scope)
            method = self._partial_of(symbol) if isinstance(symbol, Value) else None
            if method is not None:  # `read_only = functools.partial(mcp.tool, ...)`, here or imported
                if symbol.module is not module:  # type: ignore[union-attr]
                    self._homes[id(method)] = (method, symbol.module)  # type: ignore[union-attr]
                return method
            if isinstance(symbol, Value) and isinstance(symbol.node, ast.Call | ast.Attribute):
                node = symbol.node
                target = node.func if isinstance(node, ast.Call) else node
                elsewhere = symbol.module is not module
                if elsewhere and (node is not target or symbol.scope is not None):
                    return expr
                if isinstance(target, ast.Attribute) and target.attr in (*REGISTRARS, "add_tool"):
                    if elsewhere:
                        self._homes[id(node)] = (node, symbol.module)
                    return node
        return expr

    def _partial_of(self, symbol: Value) -> ast.Attribute | None:
        """`functools.partial(mcp.tool, description=...)` bound at a module's top level: the
        method, its bound arguments kept for the calls of the name (`called`)."""
        node = symbol.node
        if (
            symbol.scope is not None
            or not isinstance(node, ast.Call)
            or _bound_method(node, called=False) is None
        ):
            return None
        if self.names.canonical(symbol.module, node.func) != "functools.partial":
            return None
        method = node.args[0]
        assert isinstance(method, ast.Attribute)  # as `_bound_method` found it
        self._partials[id(method)] = (method, node)
        return method

    def server_of(
        self, module: ParsedModule, method: ast.Attribute, scope: Scope | None
    ) -> Server | ParamServer | None:
        """The server of `method` (`mcp.tool`), read where it is written: here, or in the module
        whose name it is bound to (`alias_of`)."""
        receiver = managed(method)
        home = self._homes.get(id(method))
        if home is not None and home[0] is method:  # (the node itself: an id outlives its node)
            return self.servers.of(home[1], receiver, None)
        return self.servers.of(module, receiver, scope)

    def called(self, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> ast.expr:
        """`tool = mcp.tool` then `@tool()` / `tool(name="x")(fn)`: the call of a name bound to
        the server's method, read as the call of the method itself (`mcp.tool()`)."""
        if not isinstance(expr, ast.Call):
            return expr
        func = self.alias_of(module, expr.func, scope)
        if func is expr.func or not isinstance(func, ast.Attribute) or func.attr not in REGISTRARS:
            return expr
        bound = self._partials.get(id(func))
        if bound is not None and bound[0] is func:  # the partial's arguments come first
            partial = bound[1]
            expr = calling(expr.func, expr)
            expr.args = [*partial.args[1:], *expr.args]
            given = {k.arg for k in expr.keywords if k.arg is not None}  # the call's win, as in Python
            expr.keywords = [*(k for k in partial.keywords if k.arg not in given), *expr.keywords]
        return calling(func, expr)

    def reads(self, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> bool:
        """Whether the scan registers through `expr` itself (`@deco`, `deco(fn)`): a name bound in
        this module to a server's `tool(...)` or `add_tool` (`alias_of`)."""
        alias = self.alias_of(module, expr, scope)
        target = alias.func if isinstance(alias, ast.Call) else alias
        return (
            alias is not expr
            and isinstance(target, ast.Attribute)
            and self.server_of(module, target, scope) is not None
        )


def managed(method: ast.Attribute) -> ast.expr:
    """The server whose method `method` is: `mcp` of `mcp.add_tool`, and of
    `mcp._tool_manager.add_tool` too, the manager the server's own `add_tool` hands each
    function to (same parameters, same checks, same duplicate rule): published servers
    call it to pass `meta=` or to register from an `MCPServer` subclass."""
    receiver = method.value
    if method.attr == "add_tool" and isinstance(receiver, ast.Attribute) and receiver.attr == "_tool_manager":
        return receiver.value
    return receiver


def references_method(text: str) -> bool:
    """Whether `text` writes a server's method without calling it: what binding a name to one
    takes (`add = mcp.add_tool`)."""
    return next(_uncalled_methods(text), None) is not None


def _uncalled_methods(text: str) -> Iterator[tuple[int, int]]:
    """Where `text` writes `.tool` or `.add_tool` followed neither by `(` nor by more of a name."""
    for token in (".tool", ".add_tool"):
        at = text.find(token)
        while at >= 0:
            end = at + len(token)
            following = text[end : end + 1]
            if following != "(" and not (following.isalnum() or following == "_"):
                yield at, end
            at = text.find(token, end)


def _bound_method(node: ast.AST, *, called: bool = True) -> ast.Attribute | None:
    """The server's method a module-level value binds: `mcp.add_tool`, `mcp.tool(...)` (when
    `called`) or the first argument of `partial(mcp.tool, ...)`."""
    target = node.func if called and isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute) and target.attr in _METHODS:
        return target
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute) and node.args:
        first = node.args[0]
        name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        if name == "partial" and isinstance(first, ast.Attribute) and first.attr in _METHODS:
            return first
    return None


def _called_at_line_start(text: str, name: str) -> bool:
    """Whether `name(` starts a line of `text`, past its indentation (each occurrence of
    `name(` looked at: a pattern anchored at lines' starts is tried at every line), or is a
    decorator's call there (`@read_only(`)."""
    call = f"{name}("
    at = text.find(call)
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        if text[start:at].strip(" \t") in ("", "@"):
            return True
        at = text.find(call, at + len(call))
    return False


def calling(func: ast.expr, call: ast.Call) -> ast.Call:
    """`call` as if it called `func` (what the name it calls is bound to), where it is written."""
    return ast.Call(
        func=func,
        args=call.args,
        keywords=call.keywords,
        lineno=call.lineno,
        col_offset=call.col_offset,
        end_lineno=call.end_lineno,
        end_col_offset=call.end_col_offset,
    )


_METHODS = ("tool", "add_tool")
"""The server's methods a name bound to them registers through."""

_BOUND_METHOD = re.compile(r"[ \t]*(\w+)[ \t]*=[ \t]*[\w.]+\.(?:tool|add_tool)[ \t]*(?:#.*)?$")
"""A line binding a name to a server's method, uncalled: `    tool = mcp.tool`."""
