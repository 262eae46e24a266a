"""Every call of a project function, in every function body: where registrations get their servers.

`@server.tool()` or `server.add_tool(...)` inside a function registers when that function
runs: at import, or when an entry point calls a factory (`build_server()`) or a helper
(`notes.register(server)`) at start-up. The SDK raises its registration errors then, so
every function body counts as if it ran: a `register(server)` helper takes its servers
from all its call sites (module-level code, factories, other helpers, class bodies), and a
registration of a parameter (`def tool(fn): mcp.add_tool(fn)`) registers what each call or
decorator application passes in. An `if __name__ == "__main__":` block counts too: it is
what runs when the file is the program. A helper calling a parameter (`loader(mcp)`) calls
each function its calls pass for it (`handed_registrars.py`).

A loop over values written out (`for module in (notes, admin): module.register(server)`,
`for install in (a, b): install()`, or over a name this module or another binds to them:
`from app.tools import TOOL_MODULES`, a dict's `.items()` or `.values()`) calls each of them,
and so does a call on a module `importlib.import_module` imports by a name such a loop, or
`pkgutil.iter_modules`, spells (`dynamic_imports.py`). Calls whose target cannot be named
statically (`getattr(m, name)()`, a loop over a computed list) are not followed: the
registrations they would reach take no server from them. A `functools.partial` called
(`setup = partial(register, mcp)` then `setup()`, or `partial(register, mcp)()`) calls its
function with its arguments first, and a call of an instance of a project class
(`Register()(mcp)`) its `__call__`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from pathlib import Path

from .arms import ArmStack
from .callees import Callees
from .confined import Confined
from .decorators import Decorators
from .dynamic_imports import loop_values, placed
from .handed_registrars import HandedRegistrars
from .literal_loops import LiteralLoop, written_where
from .loop_filters import broken
from .model import Arm
from .prefilter import any_of, holding, lines_with
from .skipped_callers import Aliases, SkippedFiles
from .source import ParsedModule
from .statement_calls import own_calls
from .symbols import Defined, External, Names, Scope, Value
from .written_decorators import is_registration

FunctionDef = ast.FunctionDef | ast.AsyncFunctionDef
CallSite = tuple[ParsedModule, ast.Call, Scope | None]
Application = tuple[ParsedModule, FunctionDef, ast.expr, Scope | None]
"""A decorator applied to a def: (module, the decorated def, the decorator as written, scope)."""


class CallSites:
    """The call sites of project functions, and where each is applied as a decorator.

    Walking every statement of every module for calls was most of a cold run, so only the
    statements whose lines mention a wanted name are walked: the name of a function whose
    sites are asked for (and the names modules bind it to: `Aliases`), or, in one module,
    a server variable whose passing on is asked for (`calls_passing`). A literal loop that
    mentions one is walked whole (`for install in (a, b): install()`). Modules are walked as
    the builder scans them (`modules` is its list, filled as it goes); a file the prefilter
    skipped joins them when it spells a wanted name (`skipped`, loaded by `load`).
    """

    def __init__(
        self,
        names: Names,
        decorators: Decorators,
        method_of: Callable[[Defined, str], Defined | None],
        modules: list[ParsedModule],
        load: Callable[[Path, bytes], object],
    ) -> None:
        self.names = names
        self.decorators = decorators
        self._method_of = method_of
        self._callees = Callees(names, decorators, method_of)
        self._modules = modules
        self._wanted: set[str] = set()
        self.skipped = SkippedFiles(load)
        self.confined: Confined | None = None
        """Where the calls of callers checked only for the run's helpers are resolved."""
        self._aliases = Aliases(names)
        self.handed = HandedRegistrars(names)  # `loader(mcp)`: a call of what is passed for it
        self._searched: set[str] = set()
        """The wanted names the skipped files were searched for."""
        self._widened = (0, 0)
        """How many modules and wanted names `_widen` last saw: nothing new, nothing to do."""
        self._done: dict[Path, set[str]] = {}
        """Per module, the names its lines were walked for."""
        self._walked = 0
        """`modules[:_walked]` were walked for every name in `_wanted` but `_new`."""
        self._new: set[str] = set()
        self._local: dict[Path, tuple[ParsedModule, set[str]]] = {}
        """Names wanted in one module only, not walked for yet."""
        self._seen: set[int] = set()
        """The calls walked already."""
        self._decorators_seen: set[int] = set()
        """The decorators walked already (a decorator written as a call is also a call)."""
        self._sites: dict[int, list[CallSite]] = {}
        self.recorded = 0
        """How many call sites were recorded so far: answers read from `sites` still stand
        while it has not moved (`Reach.servers_of`)."""
        self._applications: dict[int, list[Application]] = {}
        self._by_hand: dict[int, list[CallSite]] = {}
        """A decorator -> the calls applying it to a function they name (`applied_by_hand`)."""
        self._unread_applications: set[int] = set()
        """The decorators applied by a call to what is not read (`applied_unread`)."""
        self._decorating: dict[int, FunctionDef] = {}
        """A call written as a decorator (`@h.tool()`) -> the def it decorates."""
        self._bound: dict[int, str] = {}
        """A call whose result a statement binds to a name (`tool = h.tool()`) -> that name."""
        self._called_at_once: dict[int, ast.Call] = {}
        """A call whose result is called where it is made (`default(mcp)` of `default(mcp)(t)`)
        -> that outer call."""
        self._passing: dict[Path, list[tuple[CallSite, Defined]]] = {}
        self._loops: list[LiteralLoop] = []
        self._looping: list[ast.stmt] = []
        """The statements of `_loops`, in step."""
        self._arms = ArmStack()
        """The arms of exclusive statements around the statement being walked."""
        self._arms_of: dict[int, tuple[Arm, ...]] = {}
        """A recorded call site -> the arms it is written in (`arms`)."""
        self._unfolding: set[int] = set()
        """The `functools.partial(...)` calls whose function is being called (`_result_called`)."""
        self._instances: dict[int, list[ast.Call]] = {}
        """A project class -> its instantiations bound to a name (`r = Reg(mcp)`)."""

    def sites(self, fn: FunctionDef | ast.ClassDef, cls: ast.ClassDef | None = None) -> list[CallSite]:
        """The calls of this function, or of a class without an `__init__` of its own (module,
        call, the scope the call is in). A `__call__` of `cls` is called through its instances:
        `Reg(mcp)(fn)`, or `r = Reg(mcp)` then `r(fn)` (the names they are bound to walked for)."""
        if cls is not None and fn.name == "__call__":
            self.want([cls.name])
            self.want(self._bound[id(call)] for call in self._instances.get(id(cls), []))
        self.want([fn.name])
        passing = (each for calls in self._passing.values() for each in calls)
        handed = self.handed.sites(passing, fn, self.recorded) if not isinstance(fn, ast.ClassDef) else []
        return [*self._sites.get(id(fn), []), *handed]

    def applications(self, fn: FunctionDef) -> list[Application]:
        """Where this function is applied as a decorator (`@tool` on a def, `@registry.add`)."""
        self.want([fn.name])
        return self._applications.get(id(fn), [])

    def result_applications(self, fn: FunctionDef) -> list[Application]:
        """Where what a call of this function returns is applied as a decorator: `@h.tool()`
        on a def, where `def tool(): return mcp.tool()` (the call written as the decorator)."""
        return [
            (module, self._decorating[id(call)], call, scope)
            for module, call, scope in self.sites(fn)
            if id(call) in self._decorating
        ]

    def bound_results(self, fn: FunctionDef) -> list[ast.Call]:
        """The calls of this function whose result is bound to a name (`tool = h.tool()`), with
        that name's uses walked for (`value_applications`, `value_calls`)."""
        calls = [call for _, call, _ in self.sites(fn) if id(call) in self._bound]
        self.want(self._bound[id(call)] for call in calls)
        return calls

    def results_called(self, fn: FunctionDef) -> list[tuple[CallSite, ast.Call]]:
        """The calls of this function whose result is called at once, each with that call:
        `default(mcp)(t)` where `def default(mcp): return mcp.tool()`."""
        return [
            (site, self._called_at_once[id(site[1])])
            for site in self.sites(fn)
            if id(site[1]) in self._called_at_once
        ]

    def value_applications(self, value: ast.expr) -> list[Application]:
        """Where a name bound to this call's result is applied as a decorator (`@tool` where
        `tool = mcp.tool()`), in the modules walked for that name."""
        return self._applications.get(id(value), [])

    def value_calls(self, value: ast.expr) -> list[CallSite]:
        """The calls of a name bound to this call's result (`tool(fn)` where `tool = h.tool()`)."""
        return self._sites.get(id(value), [])

    def arms(self, call: ast.Call) -> tuple[Arm, ...]:
        """The arms of exclusive statements a call site of `sites` is written in: a helper's
        tools land only in the runs that take them (`arms.py`)."""
        return self._arms_of.get(id(call), ())

    def settle(self) -> None:
        """Walk the modules loaded since the last walk for every name wanted so far (what
        `sites` does first): `recorded` then counts every call site there is to find."""
        self._walk()

    def want(self, names: Iterable[str]) -> None:
        """Walk for the call sites of functions with these names (several at once: one walk)."""
        self._new.update(n for n in names if n not in self._wanted)
        self._wanted.update(self._new)
        self._walk()

    def calls_passing(self, module: ParsedModule, variables: Iterable[str]) -> list[tuple[CallSite, Defined]]:
        """The calls (and their project callees) of `module`, among them those on lines that
        mention one of `variables`, with a name (or `self.name`) among their arguments: where a
        server may be passed on."""
        self.walk_in(module, variables)
        return self._passing.get(module.path, [])

    def walk_in(self, module: ParsedModule, names: Iterable[str]) -> None:
        """Walk `module`'s lines that mention one of `names` (in that module only): its calls
        there are call sites from now on."""
        self._local.setdefault(module.path, (module, set()))[1].update(names)
        self._walk()

    # ------------------------------------------------------------------ the walk
    def _widen(self) -> None:
        """Want the names modules bind to wanted ones too, and take in the skipped files that
        spell any of them, until neither finds more."""
        while self._wanted and self._widened != (len(self._modules), len(self._wanted)):
            self._widened = (len(self._modules), len(self._wanted))
            self._aliases.index(self._modules)
            added = self._aliases.of(self._wanted) - self._wanted
            self._new |= added
            self._wanted |= added
            unsearched = self._wanted - self._searched
            self._searched |= unsearched
            if not self.skipped.load_spelling(sorted(unsearched)) and not added:
                return

    def _walk(self) -> None:
        """Walk each module for the names it was not walked for yet, and no more."""
        self._widen()
        todo: dict[Path, tuple[ParsedModule, set[str]]] = {}
        if self._new:
            # Each hop of a helper chain wants a name or two more, an entry point's factories
            # hundreds at once, and every module walked so far is searched again for them:
            # one pass of `lines_with`'s pattern (without counting lines) leaves out the many
            # that never spell one.
            spelled = any_of(self._new)
            for module in self._modules[: self._walked]:
                if module.other_breaks() or spelled.search(module.text or "") is not None:
                    todo[module.path] = (module, set(self._new))
            self._new = set()
        for module in self._modules[self._walked :]:
            todo[module.path] = (module, set(self._wanted))
        self._walked = len(self._modules)
        for path, (module, names) in self._local.items():
            todo.setdefault(path, (module, set()))[1].update(names)
        self._local = {}
        # A walk starts at a module's top, outside every arm (even if a walk is under way).
        outer, self._arms = self._arms, ArmStack()
        try:
            for path, (module, names) in todo.items():
                done = self._done.setdefault(path, set())
                names -= done
                if module.tree is None or not names:
                    continue
                done |= names
                lines = lines_with(module, names)
                if lines is None or lines:
                    self._block(module, module.tree.body, None, "", lines)
        finally:
            self._arms = outer

    def _block(
        self,
        module: ParsedModule,
        body: list[ast.stmt],
        scope: Scope | None,
        prefix: str,
        lines: list[int] | None,
    ) -> None:
        for stmt in body if lines is None else holding(body, lines):
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                self._decorators(module, stmt, scope)
                for default in [*stmt.args.defaults, *filter(None, stmt.args.kw_defaults)]:
                    self._calls_in(module, default, scope)
                qualname = f"{prefix}{stmt.name}"
                inner = Scope(module, stmt, qualname, scope)
                self._block(module, stmt.body, inner, f"{qualname}.<locals>.", lines)
                continue
            if isinstance(stmt, ast.ClassDef):
                for node in [*stmt.decorator_list, *stmt.bases]:
                    self._calls_in(module, node, scope)
                self._block(module, stmt.body, scope, f"{prefix}{stmt.name}.", lines)
                continue
            if isinstance(stmt, ast.Assign | ast.AnnAssign) and isinstance(stmt.value, ast.Call):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if len(targets) == 1 and isinstance(targets[0], ast.Name):
                    self._bound[id(stmt.value)] = targets[0].id
            self._calls_in(module, stmt, scope)
            loop = loop_values(self.names, module, stmt, scope)
            if loop is not None:
                self._loops.append(loop)
                self._looping.append(stmt)
            try:
                for child in self._arms.blocks(module, stmt):
                    if loop is not None and child is getattr(stmt, "orelse", None) and broken(loop):
                        continue  # a loop's `else:` after a `break` certain to run: never run
                    self._block(module, child, scope, prefix, None if loop is not None else lines)
            finally:
                if loop is not None:
                    self._loops.pop()
                    self._looping.pop()

    def _decorators(self, module: ParsedModule, fn: FunctionDef, scope: Scope | None) -> None:
        """`@deco` / `@factory(...)`: the decorator's body runs with the decorated def."""
        for written in fn.decorator_list:
            if id(written) in self._decorators_seen or (
                is_registration(written) and not self._callees.is_project(module, written, scope)
            ):
                continue  # the SDK's own `server.tool()`: nothing of the project runs
            self._decorators_seen.add(id(written))
            if isinstance(written, ast.Call):
                self._decorating[id(written)] = fn
            self._calls_in(module, written, scope)
            obj = self.decorators.expr(module, written, scope, {}, 0)
            applied = obj.node if obj.kind == "function" and obj.module is not None else None
            if applied is None and isinstance(written, ast.Attribute):
                method = self._callees.instance_method(module, written, scope)  # `@registry.add`
                applied = method.node if method is not None else None
            if applied is None and isinstance(written, ast.Call) and isinstance(written.func, ast.Attribute):
                applied = self._callees.method_result(module, written, scope)  # `@proxy.tool(name="x")`
            if isinstance(applied, ast.FunctionDef):
                self._applications.setdefault(id(applied), []).append((module, fn, written, scope))
            elif applied is None and isinstance(written, ast.Name | ast.Attribute):
                value = self._callees.bound_value(module, written, scope)  # `@tool` where `tool = mcp.tool()`
                if value is not None:
                    self._applications.setdefault(id(value.node), []).append((module, fn, written, scope))

    def _calls_in(self, module: ParsedModule, node: ast.AST, scope: Scope | None) -> None:
        for call in own_calls(node):
            if id(call) not in self._seen:
                self._seen.add(id(call))
                self._call(module, call, scope)

    def _call(self, module: ParsedModule, call: ast.Call, scope: Scope | None) -> None:
        func = call.func
        if isinstance(func, ast.Call):  # `partial(register, mcp)()`, `Register()(mcp)`
            self._called_at_once[id(func)] = call
            if not self._result_called(module, func, call, scope):
                self._applied_by_call(module, func, call, scope)
            return
        # `r(mcp)`, `module.register(mcp)`, `REGISTRARS[name](mcp)`, a listed `Element`
        if not isinstance(func, ast.Name | ast.Attribute | ast.Subscript):
            return
        made = placed(self.names, module, func, scope, self._loops)
        if len(made) != 1 or made[0] is not func:  # each listed value (module) in the variable's place
            turns = self._turns(func)
            for each in made:
                turn = next((turns[id(n)] for n in ast.walk(each) if id(n) in turns), None)
                with self._arms.turn(self._looping[-1], turn) if turn is not None else nullcontext():
                    self._call(module, ast.Call(func=each, args=call.args, keywords=call.keywords), scope)
            return
        confined = self.confined
        if confined is not None:
            home, written = written_where(func, module)  # a listed value: its module's imports
            local = scope if home is module else None
            if confined.outside(self.names.project, module, written, self.names.table(home), local):
                return
        fallback = self.names.fallback(module, func, scope) if not isinstance(func, ast.Subscript) else None
        if fallback is None:
            self._resolved(module, call, func, scope)
            return
        # `try: from fast import register` / `except ImportError: from slow import register`:
        # `register(mcp)` calls one of the two, each in its arm of that choice (`arms.py`).
        other, line = self.names.follow(fallback[0]), fallback[1]
        with self._arms.taking((module.display, line, 0)):
            self._resolved(module, call, func, scope)
        if isinstance(other, Defined):
            with self._arms.taking((module.display, line, 1)):
                self._record(
                    module, ast.copy_location(ast.Call(func, call.args, call.keywords), call), scope, other
                )

    def _turns(self, func: ast.expr) -> dict[int, str]:
        """The turn of the innermost loop each node of its listed rows is read in, when `func`
        names the loop's variables (`cls(key).register(mcp)` in `for cls, key in ROWS:`): a row's
        value is called in that row's turn only (`ArmStack.turn`)."""
        if not self._loops or self._arms.loop() is not self._looping[-1]:
            return {}
        variables, rows = self._loops[-1]
        names = set(variables) if isinstance(variables, tuple) else {variables}
        if not any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(func)):
            return {}
        return {id(node): str(index) for index, row in enumerate(rows) for node in ast.walk(row)}

    def _resolved(
        self,
        module: ParsedModule,
        call: ast.Call,
        func: ast.Name | ast.Attribute | ast.Subscript,
        scope: Scope | None,
    ) -> None:
        """`_call` of what `func` names where it is written."""
        symbol = self.names.resolve(module, func, scope)
        symbol = self.names.follow(symbol) if symbol is not None else None
        if isinstance(symbol, Value) and isinstance(symbol.node, ast.Call):  # `tool(fn)`, `tool = h.tool()`
            if self._result_called(symbol.module, symbol.node, call, symbol.scope, (module, scope)):
                return  # `setup = partial(register, mcp)` then `setup()`: a call of `register`
            self._sites.setdefault(id(symbol.node), []).append((module, call, scope))
            self.recorded += 1
            return
        if not isinstance(symbol, Defined) and isinstance(func, ast.Attribute):
            symbol = self._callees.instance_method(module, func, scope)
        if not isinstance(symbol, Defined):
            return
        callee: Defined | None = symbol
        if isinstance(symbol.node, ast.ClassDef):  # `Tools(server)` runs `Tools.__init__`
            if id(call) in self._bound:
                self._instances.setdefault(id(symbol.node), []).append(call)
            callee = self._method_of(symbol, "__init__") or symbol  # or the one a dataclass generates
        self._record(module, call, scope, callee)

    def _applied_by_call(
        self, module: ParsedModule, made: ast.Call, call: ast.Call, scope: Scope | None
    ) -> None:
        """`audited(mcp, "x")(create_job)`: a decorator factory's result applied by hand, to a
        function the call names (`create_job`, `self.create_job`: `applied_by_hand`) or to
        anything else (`applied_unread`)."""
        if is_registration(made.func):
            return  # `mcp.tool(name="x")(fn)`, an override of `tool` too: the scanner's site
        obj = self.decorators.expr(module, made, scope, {}, 0)
        if obj.kind != "function" or obj.module is None or not isinstance(obj.node, ast.FunctionDef):
            return
        arg = call.args[0] if len(call.args) == 1 and not call.keywords else None
        if isinstance(arg, ast.Name | ast.Attribute):
            self._by_hand.setdefault(id(obj.node), []).append((module, call, scope))
        else:
            self._unread_applications.add(id(obj.node))

    def applied_by_hand(self, fn: FunctionDef) -> list[CallSite]:
        """The calls applying this function, a decorator, to a function they name
        (`audited(mcp, "x")(self.create_job)`: `_applied_by_call`)."""
        return self._by_hand.get(id(fn), [])

    def applied_unread(self, fn: FunctionDef) -> bool:
        """Whether a call applies this function, a decorator, to what neither `applications`
        nor `applied_by_hand` lists (`_applied_by_call`): what it registers for that is not known."""
        return id(fn) in self._unread_applications

    def _result_called(
        self,
        module: ParsedModule,
        made: ast.Call,
        call: ast.Call,
        scope: Scope | None,
        at: tuple[ParsedModule, Scope | None] | None = None,
    ) -> bool:
        """`call` calling what `made` returns (`made` read in `module` and `scope`, `call` where
        `at` says when elsewhere: `setup = partial(...)` at the top, `setup()` in `main()`):
        `functools.partial(register, mcp)()` calls `register(mcp)` (the partial's arguments
        first; a call elsewhere must pass none, and is read as made where the partial is),
        `Register()(mcp)` the class's `__call__` (so does `r(fn)` of `r = Reg(mcp)`, anywhere).
        Whether it was one of those (any other call is not followed)."""
        if not isinstance(made.func, ast.Name | ast.Attribute) or is_registration(made.func):
            return False  # (`mcp.tool(name="x")(fn)`, the commonest call of a call: not resolved)
        elsewhere = at is not None and (at[0] is not module or at[1] is not scope)
        symbol = self.names.resolve(module, made.func, scope)
        symbol = self.names.follow(symbol) if symbol is not None else None
        if isinstance(symbol, External) and symbol.qualname == "functools.partial":
            if not made.args or any(isinstance(a, ast.Starred) for a in made.args):
                return False
            if elsewhere and (call.args or call.keywords):
                return False  # its arguments are read where it is written, the partial's here
            if id(made) in self._unfolding:
                return True  # `setup = partial(setup, mcp)`: the name it binds is the partial itself
            runs = ast.Call(made.args[0], [*made.args[1:], *call.args], [*made.keywords, *call.keywords])
            self._unfolding.add(id(made))
            try:
                self._call(module, ast.copy_location(runs, made if elsewhere else call), scope)
            finally:
                self._unfolding.discard(id(made))
            return True
        if not isinstance(symbol, Defined) or not isinstance(symbol.node, ast.ClassDef):
            return False
        # `r(fn)` where `r = Reg(mcp)`, here or imported: `Reg.__call__`, its arguments read at `r(fn)`.
        where, where_scope = at if at is not None else (module, scope)
        self._record(where, call, where_scope, self._method_of(symbol, "__call__"))
        return True

    def _record(
        self, module: ParsedModule, call: ast.Call, scope: Scope | None, callee: Defined | None
    ) -> None:
        """`call` is a call site of `callee` (a project function, or a class's generated `__init__`)."""
        if callee is not None and isinstance(
            callee.node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        ):
            self._sites.setdefault(id(callee.node), []).append((module, call, scope))
            self.recorded += 1
            arms = self._arms.current()
            if arms:
                self._arms_of[id(call)] = arms
            if any(_plain(a) for a in [*call.args, *(k.value for k in call.keywords)]):
                self._passing.setdefault(module.path, []).append(((module, call, scope), callee))


def _plain(arg: ast.expr) -> bool:
    """A name or `self.name`: what can hold a server passed on; or a call of a name (a server
    made there: `register(MCPServer("x"))`)."""
    if isinstance(arg, ast.Call):
        arg = arg.func
    if isinstance(arg, ast.Attribute):
        arg = arg.value
    return isinstance(arg, ast.Name)
