"""Names bound to a server's registration methods, read as the methods themselves.

`tool = mcp.tool` then `@tool()`, `register = mcp.add_tool` then `register(fn)`, `deco =
mcp.tool(name="x")` then `@deco`: the SDK registers as if `mcp.tool()` / `mcp.add_tool(fn)` were
written where the name is used. The registration scan (`registrations.py`) asks what a name it
meets stands for; `reach.py` asks which uses the scan reads itself (`reads`).
"""

from __future__ import annotations

import ast

from .servers import Servers
from .source import ParsedModule
from .symbols import Binding, Names, Scope, Value
from .written_decorators import REGISTRARS


class RegistrarAliases:
    """What a name bound to `x.tool`, `x.tool(...)` or `x.add_tool` stands for where it is used."""

    def __init__(self, names: Names, servers: Servers) -> None:
        self.names = names
        self.servers = servers

    def module_level(self, table: dict[str, Binding]) -> list[str]:
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

    def alias_of(self, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> ast.expr:
        """`deco = mcp.tool()` / `register = mcp.add_tool`: what a plain name used there stands for.

        Only a name bound in this module: its server is read here. One imported from another
        module (`from app.h import tool`) is that module's registration, found by `reach.py`."""
        if isinstance(expr, ast.Name):
            symbol = self.names.lookup(module, expr.id, scope)
            if (
                isinstance(symbol, Value)
                and symbol.module is module
                and isinstance(symbol.node, ast.Call | ast.Attribute)
            ):
                node = symbol.node
                target = node.func if isinstance(node, ast.Call) else node
                if isinstance(target, ast.Attribute) and target.attr in (*REGISTRARS, "add_tool"):
                    return node
        return expr

    def called(self, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> ast.expr:
        """`tool = mcp.tool` then `@tool()` / `tool(name="x")(fn)`: the call of a name bound to
        the server's method, read as the call of the method itself (`mcp.tool()`)."""
        if not isinstance(expr, ast.Call):
            return expr
        func = self.alias_of(module, expr.func, scope)
        if func is expr.func or not isinstance(func, ast.Attribute) or func.attr not in REGISTRARS:
            return expr
        return calling(func, expr)

    def reads(self, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> bool:
        """Whether the scan registers through `expr` itself (`@deco`, `deco(fn)`): a name bound in
        this module to a server's `tool(...)` or `add_tool` (`alias_of`)."""
        alias = self.alias_of(module, expr, scope)
        target = alias.func if isinstance(alias, ast.Call) else alias
        return (
            alias is not expr
            and isinstance(target, ast.Attribute)
            and self.servers.of(module, target.value, scope) is not None
        )


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
