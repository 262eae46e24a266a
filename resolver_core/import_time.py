"""Which project functions run while the project is imported — where registrations really happen.

`@server.tool()` or `server.add_tool(...)` inside a function registers when that function
runs. At import time that is: a call in module-level code (class bodies run too; an
`if __name__ == "__main__":` block does not, since `mcp run` and the SDK import the file
under another name), a call inside a function that itself runs at import, a decorator
applied at import (its body runs with the decorated function), and a class's `__init__`
when module-level code instantiates it. A function that is only defined, or only called
from a tool's or resolver's body (which run per request), never runs at import.

Calls whose target cannot be named statically (`getattr(m, name)()`, callbacks) are not
followed: such a registration counts as not happening (the graph then misses the tool
rather than inventing one).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator
from typing import TypeGuard

from .decorators import Decorators, is_registration
from .source import ParsedModule
from .symbols import Defined, Names, Scope

FunctionDef = ast.FunctionDef | ast.AsyncFunctionDef
CallSite = tuple[ParsedModule, ast.Call, Scope | None]
Application = tuple[ParsedModule, FunctionDef, ast.expr, Scope | None]
"""A decorator applied at import: (module, the decorated def, the decorator as written, scope)."""


class ImportTime:
    """The functions module-level code calls, transitively, with each one's call sites."""

    def __init__(
        self,
        names: Names,
        decorators: Decorators,
        method_of: Callable[[Defined, str], Defined | None],
        modules: list[ParsedModule],
    ) -> None:
        self.names = names
        self.decorators = decorators
        self._method_of = method_of
        self._modules = modules  # the builder's list of scanned modules, filled as it scans
        self._running: set[int] | None = None
        self._sites: dict[int, list[CallSite]] = {}
        self._applications: dict[int, list[Application]] = {}
        self._loops: list[tuple[str, list[ast.expr]]] = []

    def runs(self, fn: ast.AST) -> bool:
        """Whether the body of this `def` executes while the project is imported."""
        return id(fn) in self._walk()

    def sites(self, fn: ast.AST) -> list[CallSite]:
        """The import-time calls of this function (module, call, the scope the call is in)."""
        self._walk()
        return self._sites.get(id(fn), [])

    def applications(self, fn: ast.AST) -> list[Application]:
        """Where this function is applied as a decorator while importing (`@tool` on a def)."""
        self._walk()
        return self._applications.get(id(fn), [])

    # ------------------------------------------------------------------ the walk
    def _walk(self) -> set[int]:
        if self._running is None:
            self._running = set()
            for module in self._modules:
                if module.tree is not None:
                    self._block(module, module.tree.body, None)
        return self._running

    def _block(self, module: ParsedModule, body: Iterable[ast.stmt], scope: Scope | None) -> None:
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                self._decorators(module, stmt, scope)
                continue
            if isinstance(stmt, ast.ClassDef):
                for node in [*stmt.decorator_list, *stmt.bases]:
                    self._calls_in(module, node, scope)
                self._block(module, stmt.body, scope)  # a class body runs when it is defined
                continue
            if _is_main_guard(stmt):
                self._block(module, stmt.orelse, scope)
                continue
            self._calls_in(module, stmt, scope)
            loop = literal_loop(stmt)
            if loop is not None:  # `for install in (a, b): install()`: each listed function runs
                self._loops.append(loop)
            try:
                for child in child_blocks(stmt):
                    self._block(module, child, scope)
            finally:
                if loop is not None:
                    self._loops.pop()

    def _decorators(self, module: ParsedModule, fn: FunctionDef, scope: Scope | None) -> None:
        """`@deco` / `@factory(...)` run when the def is executed: the decorator's body runs."""
        for written in fn.decorator_list:
            if is_registration(written):
                continue  # the SDK's own `server.tool()`: nothing of the project runs
            self._calls_in(module, written, scope)
            obj = self.decorators.expr(module, written, scope, {}, 0)
            if obj.kind == "function" and isinstance(obj.node, ast.FunctionDef) and obj.module is not None:
                self._applications.setdefault(id(obj.node), []).append((module, fn, written, scope))
                self._enter(Defined(obj.module, obj.node, obj.qualname), obj.scope)
            elif obj.kind == "instance" and obj.call is not None:
                self._enter(obj.call, None)

    def _calls_in(self, module: ParsedModule, node: ast.AST, scope: Scope | None) -> None:
        for call in _calls(node):
            self._call(module, call, scope)

    def _call(self, module: ParsedModule, call: ast.Call, scope: Scope | None) -> None:
        if not isinstance(call.func, ast.Name | ast.Attribute):
            return
        listed = next((items for name, items in reversed(self._loops) if _names(call.func, name)), None)
        if listed is not None:
            for item in listed:
                self._call(module, ast.Call(func=item, args=call.args, keywords=call.keywords), scope)
            return
        symbol = self.names.resolve(module, call.func, scope)
        symbol = self.names.follow(symbol) if symbol is not None else None
        if not isinstance(symbol, Defined):
            return
        if isinstance(symbol.node, ast.ClassDef):
            init = self._method_of(symbol, "__init__")
            if init is not None:
                self._enter(init, None)
            return
        if isinstance(symbol.node, ast.FunctionDef | ast.AsyncFunctionDef):
            self._sites.setdefault(id(symbol.node), []).append((module, call, scope))
            parent = scope if scope is not None and symbol.qualname.startswith(f"{scope.qualname}.") else None
            self._enter(symbol, parent)

    def _enter(self, fn: Defined, parent: Scope | None) -> None:
        node = fn.node
        assert self._running is not None
        if not isinstance(node, ast.FunctionDef) or id(node) in self._running:
            return  # an `async def` called at import only makes a coroutine: its body does not run
        self._running.add(id(node))
        self._block(fn.module, node.body, Scope(fn.module, node, fn.qualname, parent))


def literal_loop(stmt: ast.stmt) -> tuple[str, list[ast.expr]] | None:
    """`for fn in (a, b, c):` — the loop variable and the expressions it takes, when written out."""
    if (
        isinstance(stmt, ast.For)
        and isinstance(stmt.target, ast.Name)
        and isinstance(stmt.iter, ast.Tuple | ast.List)
    ):
        return stmt.target.id, list(stmt.iter.elts)
    return None


def _names(func: ast.expr, name: str) -> bool:
    return isinstance(func, ast.Name) and func.id == name


def _is_main_guard(stmt: ast.stmt) -> TypeGuard[ast.If]:
    """`if __name__ == "__main__":` (either side of the comparison)."""
    if not isinstance(stmt, ast.If) or not isinstance(stmt.test, ast.Compare):
        return False
    test = stmt.test
    sides = [test.left, *test.comparators]
    return any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides) and any(
        isinstance(s, ast.Constant) and s.value == "__main__" for s in sides
    )


def _calls(node: ast.AST) -> Iterator[ast.Call]:
    """Calls in a statement's own expressions (not in nested blocks, defs, lambdas or classes)."""
    stack: list[ast.AST] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.Call):
            yield cur
        for child in ast.iter_child_nodes(cur):
            if isinstance(child, ast.stmt | ast.Lambda):
                continue
            stack.append(child)


def child_blocks(stmt: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The statement blocks nested in a compound statement (bodies, branches, handlers, cases)."""
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield block
    for handler in getattr(stmt, "handlers", []) or []:
        yield handler.body
    for case in getattr(stmt, "cases", []) or []:
        yield case.body
