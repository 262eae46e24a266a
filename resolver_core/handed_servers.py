"""Servers handed to another module's function by module-level code, followed into it.

`tools.register(mcp)` at module level runs `tools.register` when the module is imported: the
SDK registers whatever it registers on `mcp`, so the module it is written in is scanned too,
whichever files a run was given; a loop over modules written out (`for m in (notes, admin):
m.register(mcp)`, or over a list this module or another binds to them, as the call sites
read loops: `literal_loops.listed_loop`) calls each, `Kit(mcp)` runs `Kit.__init__`, and what such a function passes
the server on to (`install(server)` calling `notes.register(server)`) is followed by `reach`
from the calls kept here (`handed`). Inside functions the call sites do this work
(`call_sites.py`), as calls are asked for.
"""

from __future__ import annotations

import ast
import re
import sys
from typing import TYPE_CHECKING

from .dynamic_imports import loop_values, placed
from .literal_loops import LiteralLoop, calls_on_lines, written_where
from .model import Server
from .prefilter import passed_lines
from .project import is_sdk_module
from .source import ParsedModule
from .symbols import Binding, Defined

if TYPE_CHECKING:
    from .registrations import Scanner


class HandedServers:
    """What the module-level calls of the scanned modules hand a server to. The scanner is
    passed to `follow`, not kept: a build is freed by reference counting, with no cycle."""

    def __init__(self) -> None:
        self.passed_by: dict[str, str] = {}
        """Module scanned because a server was passed to one of its functions -> the file passing it."""
        self.handed: list[tuple[ParsedModule, ast.Call, Defined]] = []
        """The calls handing a server (as made: a loop's value in its variable's place) and
        the function or class each calls, for `reach` to follow what it passes the server on to."""

    def follow(self, scanner: Scanner, module: ParsedModule, table: dict[str, Binding], text: str) -> None:
        """`tools.register(mcp)`: a server passed to a function of another project module.

        That module registers tools on the server, so it is scanned too, even when only this
        file was given (pre-commit passes `server.py` alone when only it changed); its tools'
        verdicts belong to this file (`Tool.origin`) unless that module is given itself.
        A loop over modules written out (`for m in (notes, admin): m.register(mcp)`, or in a
        list a module binds) calls each, and what the function passes the server on to is followed by `reach` (`handed`):
        a build of this file alone reaches the helpers a build of every file reaches, so the
        file's dependencies list them (an edit of one re-checks it with this file).
        Only calls passing a module-level name as a whole argument are looked at, and only
        in text that has one (`(mcp)`, `(mcp, ...)`, `server=mcp`): resolving every call of
        every file would cost more than the scan itself. Only the statements whose lines
        can hold such a call are walked (`prefilter.passed_lines`): walking whole trees
        was most of a cold run.
        """
        names = [n for n, b in table.items() if b.kind in ("value", "import") and n in text]
        makers = {n for n in names if _may_make(n, table[n])}
        makers.update(n for n, b in table.items() if b.kind == "def" and n.endswith("Server") and n in text)
        if not (names or makers) or module.tree is None:
            return
        lines = passed_lines(text, names, makers)
        if lines is None:  # a text the lines cannot be told from: the whole tree, as written
            passed = re.compile(r"[(,=]\s*(" + "|".join(map(re.escape, [*names, *makers])) + r")\s*[,)(]")
            if not passed.search(text):
                return
        elif not lines:
            return

        def loop_of(stmt: ast.stmt) -> LiteralLoop | None:  # as the call sites read loops
            return loop_values(scanner.names, module, stmt, None)

        for node, loops in calls_on_lines(module.tree, lines, loop_of):
            args = [
                a
                for a in [*node.args, *(k.value for k in node.keywords)]
                if (isinstance(a, ast.Name) and a.id in table)
                or (isinstance(a, ast.Call) and _named_call(a, makers))
            ]
            if not any(isinstance(scanner.servers.of(module, a, None), Server) for a in args):
                continue
            for func in placed(
                scanner.names, module, node.func, None, loops
            ):  # `for m in (fa, fb): m.register(mcp)`
                made = node if func is node.func else ast.Call(func, node.args, node.keywords)
                self._follow_into(scanner, module, made, table)

    def _follow_into(
        self, scanner: Scanner, module: ParsedModule, call: ast.Call, table: dict[str, Binding]
    ) -> None:
        """Scan the module of the function `call` calls with a server of `module` (or of the
        class: `Kit(mcp)` runs `Kit.__init__`)."""
        confined = scanner.confined
        home, written = written_where(call.func, module)  # a listed value: its module's imports
        table = table if home is module else scanner.names.table(home)
        if confined is not None and confined.outside(scanner.names.project, module, written, table):
            return
        callee = scanner.names.resolve(module, call.func, None)
        callee = scanner.names.follow(callee) if callee is not None else None
        if (
            isinstance(callee, Defined)
            and callee.module is not module
            and isinstance(callee.node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and (confined is None or confined.admits(scanner.names.project, module, callee.module))
        ):
            self.handed.append((module, call, callee))
            if callee.module.path not in scanner.scanned_paths:
                self.passed_by.setdefault(callee.module.display, module.display)
                scanner.scan(callee.module)


def _may_make(name: str, binding: Binding) -> bool:
    """Whether a call of an imported name may make or hand out a server: one imported from
    anywhere but the standard library and the SDK (whose only server is `MCPServer`), or a
    server class (`*Server`; the module's own are looked for too). Not every function the
    module defines: looking for each one's calls was a tenth of a cold run, for a getter
    seldom defined beside the call handing its server to another module's helper (the
    helper's callers find it there: `reach`)."""
    if binding.kind != "import" or binding.target is None:
        return False
    module, attr = binding.target
    top = module.partition(".")[0]
    named = name.endswith("Server") or (attr or "").endswith("Server")  # `MCPServer as Server`
    return named or not (is_sdk_module(top) or top in sys.stdlib_module_names)


def _named_call(call: ast.Call, makers: set[str]) -> bool:
    """Whether a call's callee starts with one of the module's names (`MCPServer(...)`,
    `get_mcp()`, `server.get_mcp()`): what `passed_lines` looked for."""
    func = call.func
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and func.id in makers
