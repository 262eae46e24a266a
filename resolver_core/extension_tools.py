"""The tools an `Apps` extension hands the server it is given: `@apps.tool(resource_uri=...)`.

mcp 2's `mcp.server.apps.Apps` (an `Extension`) keeps each function its `tool()` decorates;
a server given it (`MCPServer("clock", extensions=[apps])`) registers them when it is
constructed, in the order they were decorated (`MCPServer._apply_extension`: `add_tool(fn,
meta=..., **kwargs)`, `name=` among the kwargs), so the SDK judges them then: a parameter
named `_tz` stops the server, as on `@mcp.tool()`. A function decorated after that
construction is never registered.

Read here: an `Apps()` bound to a name (`apps = Apps()`), decorated in the module binding it,
given in a list or tuple written in the constructor's `extensions=`, the decorations scanned
before that call (module order, as the import runs them), each `resource_uri` a `ui://` text
the module serves (else `Apps` raises and the server registers none of them). An extension class of the project's
own (`class Stamps(Extension)` with a `tools()` method) is not read.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, NamedTuple

from .model import Server, Span
from .registration_arguments import name_argument
from .registration_site import Registration
from .source import ParsedModule
from .symbols import External, Names, Scope, Value

if TYPE_CHECKING:
    from .servers import ParamServer

_APPS = "mcp.server.apps.Apps"


class Decorated(NamedTuple):
    """A def an `Apps` instance's `tool()` decorates, as written."""

    module: ParsedModule
    fn: ast.FunctionDef | ast.AsyncFunctionDef
    scope: Scope | None
    decorator: ast.expr
    name_node: ast.expr | None
    span: Span
    qualname: str

    def registration(self, server: Server | ParamServer, name: str | None) -> Registration:
        """Its registration on a server given its `Apps` instance, under `name` (its `name=`)."""
        return Registration(
            server,
            "tool",
            self.fn,
            self.module,
            self.scope,
            name,
            self.span,
            decorator=self.decorator,
            name_node=self.name_node,
            qualname=self.qualname,
        )


class ExtensionTools:
    """The defs each `Apps` instance decorated so far, by the `Apps()` call making it."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self._decorated: dict[int, list[Decorated]] = {}

    def decorated(
        self,
        module: ParsedModule,
        target: ast.Attribute,
        fn: ast.FunctionDef | ast.AsyncFunctionDef,
        scope: Scope | None,
        written: tuple[ast.expr, str],
    ) -> None:
        """`@apps.tool(resource_uri=...)` (`target`: `apps.tool`; `written`: the decorator as
        written, and the def's qualified name), kept when `apps` holds an `Apps()`."""
        made = self._apps(module, target.value, scope) if target.attr == "tool" else None
        if made is None:
            return
        decorator, qualname = written
        name_node = name_argument(decorator) if isinstance(decorator, ast.Call) else None
        self._decorated.setdefault(id(made), []).append(
            Decorated(module, fn, scope, decorator, name_node, module.span(decorator), qualname)
        )

    def given(self, module: ParsedModule, call: ast.Call, scope: Scope | None) -> list[Decorated]:
        """The defs decorated so far by each `Apps` instance a constructor call's `extensions=`
        lists, in order: the tools the server it makes registers."""
        given = next((k.value for k in call.keywords if k.arg == "extensions"), None)
        if not isinstance(given, ast.List | ast.Tuple):
            return []
        out: list[Decorated] = []
        served: dict[int, set[str]] = {}  # (per module: one walk for all its tools)
        for each in given.elts:
            made = self._apps(module, each, scope)
            decorated = self._decorated.get(id(made), []) if made is not None else []
            if all(_served(d, served) for d in decorated):  # else the constructor raises: no tool is
                out += decorated
        return out

    def _apps(self, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> ast.Call | None:
        """The `Apps()` call a name holds, when it is bound to one (here or imported)."""
        if not isinstance(expr, ast.Name):
            return None
        symbol = self.names.resolve(module, expr, scope)
        symbol = self.names.follow(symbol) if symbol is not None else None
        if not isinstance(symbol, Value) or not isinstance(symbol.node, ast.Call):
            return None
        made = self.names.resolve(symbol.module, symbol.node.func, symbol.scope)
        made = self.names.follow(made) if made is not None else None
        return symbol.node if isinstance(made, External) and made.qualname == _APPS else None


def _served(decorated: Decorated, served: dict[int, set[str]]) -> bool:
    """Whether a tool's `resource_uri` is a `ui://` text the module serves (passed to an
    `add_html_resource(...)` or `add_resource(...)` call): else `Apps.tool` or the server's
    constructor raises `ValueError`, and no tool of that server is registered. `served`: the
    texts of the modules read so far."""
    uri = next(
        (k.value for k in getattr(decorated.decorator, "keywords", []) if k.arg == "resource_uri"), None
    )
    if (
        not isinstance(uri, ast.Constant)
        or not isinstance(uri.value, str)
        or not uri.value.startswith("ui://")
    ):
        return False
    module = decorated.module
    if id(module) not in served:
        served[id(module)] = _resources(module)
    return uri.value in served[id(module)]


def _resources(module: ParsedModule) -> set[str]:
    """The texts passed to the module's `add_html_resource(...)` / `add_resource(...)` calls."""
    calls = [
        node
        for node in (ast.walk(module.tree) if module.tree is not None else ())
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("add_html_resource", "add_resource")
    ]
    return {
        node.value
        for call in calls
        for node in ast.walk(call)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
