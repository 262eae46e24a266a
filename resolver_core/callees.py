"""What a callee or a decorator, as written, names when it is not a function of the project
by its name: a method of an instance (`manager.register_tool(...)`, `@registry.add`), the def
a method returns (`@proxy.tool(name="x")`), a name bound to a call's result (`@tool` where
`tool = mcp.tool()`). Kept apart from `call_sites.py`, which walks the calls and keeps what
they reach; these only answer, and record nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .bindings import Element
from .class_members import self_class
from .decorated import Obj
from .decorators import Decorators
from .made_instances import made_class
from .source import ParsedModule
from .symbols import Defined, Names, Scope, Value

FunctionDef = ast.FunctionDef | ast.AsyncFunctionDef


class Callees:
    """The lookups of `CallSites`, with the names, decorators and method resolution it holds."""

    def __init__(
        self, names: Names, decorators: Decorators, method_of: Callable[[Defined, str], Defined | None]
    ) -> None:
        self.names = names
        self.decorators = decorators
        self.method_of = method_of

    def is_project(self, module: ParsedModule, written: ast.expr, scope: Scope | None) -> bool:
        """Whether a decorator written like the SDK's (`@x.tool`, `@x.tool(...)`) names a
        project function instead (`@h.tool` of a module `h`): then it runs, as any other."""
        target = written.func if isinstance(written, ast.Call) else written
        symbol = self.names.resolve(module, target, scope)
        symbol = self.names.follow(symbol) if symbol is not None else None
        return (
            isinstance(symbol, Defined)
            or (isinstance(symbol, Value) and isinstance(symbol.node, ast.Call))  # `tool = mcp.tool()` of `h`
            or (isinstance(target, ast.Attribute) and self.instance_method(module, target, scope) is not None)
        )

    def method_result(self, module: ParsedModule, call: ast.Call, scope: Scope | None) -> FunctionDef | None:
        """The def a method of an instance returns (`proxy.tool(name="x")` returning its nested
        `decorator`), read as `decorators` reads a factory's `return`."""
        assert isinstance(call.func, ast.Attribute)
        method = self.instance_method(module, call.func, scope)
        if method is None or not isinstance(method.node, ast.FunctionDef):
            return None
        args = [
            Obj("external", qualname="self"),
            *(self.decorators.expr(module, a, scope, {}, 0) for a in call.args),
        ]
        result = self.decorators.call(self.decorators.plain(method, None), args, {}, 0)
        node = result.node if result.kind == "function" and result.module is not None else None
        return node if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else None

    def bound_value(self, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> Value | None:
        """What `expr` names when it is a name bound to a call's result (`tool = h.tool()`)."""
        symbol = self.names.resolve(module, expr, scope)
        symbol = self.names.follow(symbol) if symbol is not None else None
        return symbol if isinstance(symbol, Value) and isinstance(symbol.node, ast.Call) else None

    def instance_method(
        self, module: ParsedModule, func: ast.Attribute, scope: Scope | None
    ) -> Defined | None:
        """`manager.register_tool(...)` where `manager = ServerManager()`, or
        `ServerManager().register_tool(...)`: that class's method; also where the object is
        what a factory returns (`registrar = make_registrar(mcp)`), when every `return` of it
        builds that one class (`made_instances.made_class`). A listed instance too (`for tool
        in TOOLS: tool.add(mcp)`, `TOOLS = [SolveTool(), ...]` in another module): the call
        written there (`Element`), read with that module's names."""
        value = func.value
        if isinstance(value, Element) and isinstance(value.written, ast.Call):
            cls = made_class(self.names, value.module, value.written, value.scope)
        elif isinstance(value, ast.Call):
            cls = made_class(self.names, module, value, scope)
        else:
            base = self.names.resolve(module, func.value, scope)
            base = self.names.follow(base) if base is not None else None
            own = self_class(self.names, module, base, scope)
            if own is not None:  # `self._add_tool(server, self.search, "x")`: its class's, or a base's
                return self.method_of(own, func.attr)
            if not isinstance(base, Value) or not isinstance(base.node, ast.Call):
                return None
            cls = made_class(self.names, base.module, base.node, base.scope)
        return self.method_of(cls, func.attr) if cls is not None else None
