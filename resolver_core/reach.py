"""Where registration sites land: the servers that reach a server parameter, and the functions
that reach a registered parameter.

`def register(server)` registers on every server its call sites pass: from module-level code,
a factory's local `MCPServer(...)`, another helper's own server parameter (followed until a
server is found), in a loop over modules. A parameter annotated `MCPServer` that no call in
the project fills is a server of its own (a library of tools: its tools are checked anyway);
an unannotated one (or `Any`) that nothing fills is not known to be a server at all, and is
reported as a registration mcpdeps cannot follow, naming the call passing what it cannot
follow; one whose calls pass only values known to be no server (another framework's
`Agent()`: `slot_fillers.py`) registers nothing the SDK sees, and is said nothing of. `def tool(fn): mcp.add_tool(fn)` registers the def
each `@tool` decorates and each `tool(g)` call's argument (`@registry.add` too, a method whose
instance holds the server); `def tool(): return mcp.tool()` hands out the SDK's decorator, so
each `@tool()` registers the def it decorates, and `tool = mcp.tool()` (or `tool =
h.tool()`, a call of such a factory) each def `@tool` decorates and each `tool(fn)`'s `fn`,
in any module importing `tool`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from .arms import ENTRY, MAX_WAYS, Way, called
from .body_ways import BodyWays
from .call_order import CallOrder
from .call_sites import Application, CallSites
from .caller_loops import CallerLoops
from .class_members import decorator_names, derives
from .factory_results import each_call, follow_factories
from .hand_applied import applied_to, applied_unread, by_hand, wraps_its_parameter
from .keyed_servers import by_keyword, spread_entry
from .literal_loops import listing_name
from .loop_collectors import on_instance, returned_local
from .model import Server
from .passed_loops import call_arguments, landings
from .registered_names import factory_argument, landed_name, landed_on_def, name_passed
from .registration_site import Registration, Unfollowed, landed
from .registrations import Scanner
from .server_lines import server_variables
from .servers import ParamServer, Servers
from .signatures import function_params
from .slot_fillers import Filling, mcp1_server, passed_each, unfollowed_pass
from .source import ParsedModule
from .symbols import Defined, Names, Param, Scope

_MAX_HOPS = 32
"""Helpers passing a server on to helpers: deeper chains than this are not followed."""

Landings = dict[int, tuple[Server, list[Way]]]
"""The servers a server parameter is filled with (by id, in the order found), each with every
way its function comes to run with that server (`arms.Way`; `Reach.servers_of`)."""


def _land(out: Landings, server: Server, way: Way) -> None:
    """One more way `server` reaches a parameter (each one a call of the function: a helper
    called twice on one server registers its tools twice)."""
    ways = out.setdefault(id(server), (server, []))[1]
    if len(ways) < MAX_WAYS:
        ways.append(way)


class Reach:
    """The servers and functions each registration site stands for, from the project's call sites."""

    def __init__(self, names: Names, servers: Servers, scanner: Scanner, call_sites: CallSites) -> None:
        self.names = names
        self.servers = servers
        self.scanner = scanner
        self.call_sites = call_sites
        self.order = CallOrder()
        """The calls the ways go through: which helper's registrations run first."""
        self.bodies = BodyWays(call_sites, self.order)
        self.caller_loops = CallerLoops(names)
        """What calls in loops pass (`for fn in READERS: add(mcp, fn)`)."""
        self._filled: dict[tuple[int, int, str, int, int], tuple[int, Landings]] = {}
        """Per server parameter (its function, index, name): the servers its call sites pass,
        (or, `Registration.landed_at`, one of them passes), and `CallSites.recorded` while
        they were read (none found meanwhile). A
        `register(server)` helper's tools all take the same parameter; its call sites are read
        again only once new ones were found (a module loaded since, as a tool's hints are read,
        may call it)."""
        self._passed: dict[
            tuple[int, int, str, int], tuple[int, list[Filling], dict[int, list[Filling]]]
        ] = {}
        """Per server parameter: `passed_for`, those of each call (by id), and
        `CallSites.recorded` while they were read; as `_filled` is kept."""

    def follow_passed_servers(self) -> None:
        """Scan the modules whose functions receive a server from a call in a scanned module.

        `build_server()` calling `notes.register(mcp)` on its local server: `notes` registers on
        it even when only the factory's file was given (pre-commit passes the changed files),
        also through helpers that pass their parameter on (`install(server)` calling
        `notes.register(server)`). Only calls on lines mentioning a variable that may hold a
        server are looked at (`server_variables`, then the parameters such calls fill);
        whether it does is decided by `Servers.of`.
        """
        follow_factories(self)  # the factories whose calls made servers: their tools are on them
        pending = {m.path: (m, server_variables(m.text or "")) for m in self.scanner.scanned}
        for at, call, callee in self.scanner.handing.handed:  # `wiring.install(mcp)` at module level
            passed = self._passed_parameters(at, call, None, callee)
            pending.setdefault(callee.module.path, (callee.module, set()))[1].update(passed)
            listing = listing_name(call.func)
            if listing is not None:
                # `for install in REGISTRARS: install(mcp)` over another module's list spells
                # neither `register` nor a server `at` creates: walked for the list's name.
                self.call_sites.walk_in(at, [listing])
        asked: dict[Path, set[str]] = {}
        while pending:
            path, (module, variables) = pending.popitem()
            variables -= asked.setdefault(path, set())
            if not variables:
                continue
            asked[path] |= variables
            withheld = self.scanner.confined.withheld if self.scanner.confined is not None else frozenset()
            for (at, call, scope), callee in self.call_sites.calls_passing(module, variables):
                if callee.module.path in withheld:  # another slice's file (`Confined.withheld`)
                    self.scanner.names.project.withhold(at.path, callee.module.path)
                    continue
                passed = self._passed_parameters(at, call, scope, callee)
                if not passed:
                    continue
                if callee.module.path not in self.scanner.scanned_paths:
                    self.scanner.handing.passed_by.setdefault(callee.module.display, at.display)
                    self.scanner.scan(callee.module)
                    passed |= server_variables(callee.module.text or "")
                known = pending.get(callee.module.path, (callee.module, set()))[1]
                pending[callee.module.path] = (callee.module, known | passed)

    def _passed_parameters(
        self, module: ParsedModule, call: ast.Call, scope: Scope | None, callee: Defined
    ) -> set[str]:
        """The parameters of `callee` that this call fills with a server (or a server parameter)."""
        node = callee.node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            return set()
        params = [a.arg for a, *_ in function_params(node)]
        skip = 1 if callee.owner is not None or params[:1] in (["self"], ["cls"]) else 0
        out = set()
        for index, arg in enumerate(call.args):
            if index + skip < len(params) and self.servers.of(module, arg, scope):
                out.add(params[index + skip])
        for keyword in call.keywords:
            if keyword.arg in params and self.servers.of(module, keyword.value, scope):
                out.add(keyword.arg)
        return out

    def servers_of(self, reg: Registration) -> list[tuple[Server, list[Way]]]:
        """The concrete servers a registration lands on (server parameters through their call
        sites), each with every way its function comes to run with that server (`arms.py`)."""
        if isinstance(reg.server, Server):
            return each_call(self, reg.server) or [
                (reg.server, self.bodies.ways(reg.module, reg.scope, reg.server))
            ]
        ps = reg.server
        key = (*_key(ps), id(reg.landed_at))
        filled = self._filled.get(key)
        self.call_sites.settle()
        before = self.call_sites.recorded
        if filled is not None and filled[0] == before:
            out = dict(filled[1])
        else:
            out = self._fill(ps, {}, 0, reg.landed_at)
            if self.call_sites.recorded == before:  # read from call sites that stood throughout
                self._filled[key] = (before, dict(out))
        if not out:
            if reg.server.annotated:
                return [(self.servers.parameter(reg.server), [ENTRY])]
            passed = self._passed_at(ps, reg.landed_at)
            unfollowed = unfollowed_pass(self, passed)
            if passed and unfollowed is None:  # `register_agent(Agent())`: nothing the SDK sees
                return []
            name = reg.shown_name
            advice = f"annotate it `{ps.name}: MCPServer` to have its tools checked"
            if unfollowed is None:
                why = "no call in the project passes one"
            else:
                module, call, scope, arg = unfollowed
                # A call a loop over modules stands for was made by mcpdeps: its argument was written.
                line = getattr(call, "lineno", None) or getattr(arg, "lineno", "?")
                why = f"{module.display}:{line} passes `{ast.unparse(arg)}`"
                if mcp1_server(self.names, module, arg, scope):
                    why += ", mcp 1.x's `FastMCP`, which mcp 2 removed"
                    advice = "`mcpdeps migrate` moves it to `MCPServer`"
                else:
                    why += ", which mcpdeps cannot follow"
            self.scanner.unfollowed.append(
                Unfollowed(
                    reg.span,
                    f"tool {name!r} not analysed: {ps.name!r} of {ps.function.name}() is not known to be "
                    f"a server, {why} ({advice})",
                    name,
                )
            )
        return list(out.values())

    def _passed_at(self, ps: ParamServer, only: ast.Call | None) -> list[Filling]:
        """The calls filling `ps` a registration lands at: `only` when it is one of them
        (`Registration.landed_at`), else all."""
        passed = self.passed_for(ps)
        if only is None:
            return passed
        known = self._passed.get(_key(ps))
        if known is not None and known[1] is passed:
            return known[2].get(id(only)) or passed
        return [each for each in passed if each[1] is only] or passed

    def _fill(
        self, ps: ParamServer, done: dict[int, Landings | None], hops: int, only: ast.Call | None = None
    ) -> Landings:
        """The servers passed for `ps` at each call site of its function, through helpers'
        parameters, with the arms every way to each shares (keyed by the server's id, in the
        order found); at `only` alone when it is one of them. `done`: per function, what was
        found (None while it is being read: a helper reached again through its own callers
        adds nothing)."""
        out: Landings = {}
        fid = id(ps.function)
        if fid in done or hops > _MAX_HOPS:
            return dict(done.get(fid) or {})
        done[fid] = None
        for module, call, scope, arg in self._passed_at(ps, only):
            arms, site = self.call_sites.arms(call), self.order.site(module, call, scope)
            # `for host in (agent, mcp): register(host)`: each value the loop takes
            for value, where, at in passed_each(self, (module, call, scope, arg)) or []:
                server = self.servers.of(where, value, at)
                if isinstance(server, Server):  # a factory's own: on what each call of it makes
                    made = each_call(self, server) or [
                        (server, self.bodies.ways(module, scope, server, calling=True, through=call))
                    ]
                    for landed_on, ways in made:
                        for way in ways:
                            _land(out, landed_on, called(way, arms, site))
                elif isinstance(server, ParamServer):  # (`loader(mcp)`: in the one call passing it)
                    handed = self.call_sites.handed.through(call)
                    only, fresh = (handed[0][1], {}) if handed is not None else (None, done)
                    for outer, ways in self._fill(server, fresh, hops + 1, only).values():
                        for way in ways:
                            _land(out, outer, called(self.bodies.placed(way, handed), arms, site))
        done[fid] = out
        return out

    def want_callers(self, registrations: Iterable[Registration]) -> None:
        """Walk for the calls filling the server parameters of these registrations, then for
        those filling the parameters these calls pass on: a level of every chain at once, as
        each walk searches every module walked so far (`_fill`, asking one parameter at a time,
        would search them again for each link of each chain)."""
        level = [reg.server for reg in registrations if isinstance(reg.server, ParamServer)]
        seen: set[tuple[int, int, str, int]] = set()
        for _ in range(_MAX_HOPS + 1):
            level = list({_key(ps): ps for ps in level if _key(ps) not in seen}.values())
            if not level:
                return
            seen.update(map(_key, level))
            self.call_sites.want([name for ps in level for name in self._called_names(ps)])
            level = [
                server
                for ps in level
                for module, call, scope, arg in self.passed_for(ps)
                if isinstance(server := self.servers.of(module, arg, scope), ParamServer)
            ]

    def _called_names(self, ps: ParamServer) -> list[str]:
        """The names walked for to find the calls filling `ps`: its function's (the subclass's,
        for a base dataclass's field: `WeatherTools(mcp)`), and its class's for `Registry(mcp)`
        and `R()(mcp)`."""
        names = [_made(ps).name]
        cls = self.servers.class_of(ps.module, ps.function)
        if cls is not None and ps.function.name in ("__init__", "__call__"):
            names.append((ps.holder or cls).name)
        return names

    def passed_for(self, ps: ParamServer) -> list[Filling]:
        """Each call of the function of `ps`, with the argument it passes for `ps` (module,
        call, its scope, argument); read again only once new call sites were found."""
        self.call_sites.want(self._called_names(ps))
        key = _key(ps)
        known = self._passed.get(key)
        before = self.call_sites.recorded
        if known is not None and known[0] == before:
            return known[1]
        out = self._read_passed(ps)
        if self.call_sites.recorded == before:  # read from call sites that stood throughout
            by_call: dict[int, list[Filling]] = {}
            for each in out:
                by_call.setdefault(id(each[1]), []).append(each)
            self._passed[key] = (before, out, by_call)
        return out

    def _read_passed(self, ps: ParamServer) -> list[Filling]:
        """`passed_for`, read from the call sites."""
        # `Tools(server)` fills `__init__(self, mcp)`, `Kit().register(server)` a method's
        # `register(self, mcp)`: the call passes no `self` (`Kit.register(kit, server)` does);
        # a classmethod's `cls` is bound on the class too (`Kit.register(server)`).
        init = ps.function.name == "__init__"
        cls = self.servers.class_of(ps.module, ps.function)
        decorators = decorator_names(ps.function) if cls is not None else set()
        method = cls is not None and "staticmethod" not in decorators
        out: list[Filling] = []
        for module, call, scope in self.call_sites.sites(_made(ps)):
            if ps.holder is not None and not self._instantiates(module, call, scope, ps.holder):
                continue  # another subclass's instance: its methods are not the holder's
            bound = (
                init or "classmethod" in decorators or (method and not self._on_class(module, call, scope))
            )
            index = ps.index - 1 if bound else ps.index
            arg = (
                call.args[index]
                if 0 <= index < len(call.args) and not by_keyword(ps)
                else next((k.value for k in call.keywords if k.arg == ps.name), None)
            )
            arg = arg if arg is not None else spread_entry(self.names, module, call, scope, ps.name)
            if arg is not None:
                out.append((module, call, scope, arg))
        return out

    def _instantiates(
        self, module: ParsedModule, call: ast.Call, scope: Scope | None, cls: ast.ClassDef
    ) -> bool:
        """Whether `call` builds an instance of `cls` (of it, or of a project subclass of it)."""
        made = self.names.resolve(module, call.func, scope)
        made = self.names.follow(made) if made is not None else None
        return isinstance(made, Defined) and derives(self.names, made, cls)

    def _on_class(self, module: ParsedModule, call: ast.Call, scope: Scope | None) -> bool:
        """Whether `call` is `Kit.method(...)`, a method called on its class (passing `self`)."""
        if not isinstance(call.func, ast.Attribute):
            return False
        owner = self.names.resolve(module, call.func.value, scope)
        owner = self.names.follow(owner) if owner is not None else None
        return isinstance(owner, Defined) and isinstance(owner.node, ast.ClassDef)

    def through_parameter(self, reg: Registration) -> list[Registration]:
        """`def tool(fn): mcp.add_tool(fn); return fn`: registers what each use of the function
        passes in (the def it decorates, or a call's argument); `def tool(): return
        mcp.tool()`: the def each `@tool()` decorates; `tool = mcp.tool()`: each use of `tool`."""
        if reg.returned:
            return self._through_factory(reg)
        if reg.bound is not None and isinstance(reg.fn, ast.Call):
            self.call_sites.want([reg.bound])
            return self._uses(reg, reg.fn, None)
        if reg.scope is None:
            return []
        if reg.passed is not None:  # `for entry in entries: server.add_tool(entry.function)`
            return landings(self.names, self.call_sites, self.servers, reg, self.scanner.unfollowed)
        symbol = self.names.lookup(reg.module, reg.fn.id, reg.scope) if isinstance(reg.fn, ast.Name) else None
        fn = reg.scope.function
        if not isinstance(symbol, Param) or symbol.function is not fn:
            return self._wrapper_returned(reg) if hands_back(reg) else []
        params = [a for a, *_ in function_params(fn)]
        index = params.index(symbol.node)
        out = [
            landed_on_def(self.names, reg, applied, reg.scope.parent, reg.span)
            for applied in self._applications(reg.scope)
            # `@registry.add` passes the def after the bound `self`
            if index == (isinstance(applied[2], ast.Attribute) and params[0].arg in ("self", "cls"))
            and on_instance(self.names, reg.collector, applied[0], applied[2], applied[3])
        ]
        if index == 0 and isinstance(fn, ast.FunctionDef):
            out += by_hand(self.names, self.call_sites, reg)
        for module, call, scope, arg, bound in call_arguments(
            self.call_sites, self.servers, reg.module, fn, index
        ):
            if not on_instance(self.names, reg.collector, module, call.func, scope):
                continue
            passed = name_passed(self.names, reg, call, bound)
            # Registered when the call runs: its line is where module-level names must be bound.
            span = module.span(call)
            # In the arms of the call, and of the registration in the function it calls.
            arms = (*self.call_sites.arms(call), *reg.arms)
            # `for fn in READERS: add(mcp, fn)`: each function the loop's variable takes, each
            # with the name the call passes on that pass.
            for value, where, at, named in self.caller_loops.passed_values(
                module, scope, call, arg, passed, span, self.scanner.unfollowed
            ):
                name, name_node = landed_name(self.names, reg, call, bound, (where, value, at), named)
                out.append(landed(reg, value, (where, at), name, span, call, arms, name_node))
        return out

    def _applications(self, scope: Scope) -> list[Application]:
        """Where the function of `scope` is applied as a decorator, also as what a function
        around it returns (`@named_tool(mcp, name="x")` applies the `decorator` it returns: the
        walk looks for the outer name)."""
        outer = []
        cur = scope.parent
        while cur is not None:
            if isinstance(cur.function, ast.FunctionDef | ast.AsyncFunctionDef):
                outer.append(cur.function.name)
                # `tool = make_tool(mcp)`, then `@tool` in another module: walk for `tool` too
                self.call_sites.bound_results(cur.function)
            cur = cur.parent
        self.call_sites.want(outer)
        assert isinstance(scope.function, ast.FunctionDef | ast.AsyncFunctionDef)
        return self.call_sites.applications(scope.function)

    def applied_unread(self, reg: Registration) -> bool:
        """`hand_applied.applied_unread`: the wrapper `reg` registers stays a tool as written."""
        return applied_unread(self.names, self.call_sites, reg)

    def _wrapper_returned(self, reg: Registration) -> list[Registration]:
        """`def expose(fn): ...; return mcp.tool()(wrapper)`: a decorator registering what it
        made of the def it is applied to (a `functools.wraps` wrapper, `audited(fn)`) and
        returning it: each def it decorates lands as the decorator leaves it."""
        assert reg.scope is not None
        fn = reg.scope.function
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) or not function_params(fn):
            return []
        out = []
        for applied in self._applications(reg.scope):
            landed = landed_on_def(self.names, reg, applied, reg.scope.parent, reg.span)
            landed.through_decorator = True
            out.append(landed)
        if self.call_sites.applied_by_hand(fn) and wraps_its_parameter(self.names, reg):
            out += by_hand(self.names, self.call_sites, reg)
        return out

    def _through_factory(self, reg: Registration) -> list[Registration]:
        """`def tool(): return mcp.tool()`: each `@tool()` applies the SDK's decorator to its def,
        as `@mcp.tool()` written there would (`@tool(name="x")` passing the factory's `name`);
        so does each use of a name a call of it is bound to (`tool = h.tool(name="x")`)."""
        factory = reg.scope.function if reg.scope is not None else None
        if not isinstance(factory, ast.FunctionDef | ast.AsyncFunctionDef):
            return []
        out = [
            landed_on_def(self.names, reg, applied, reg.scope, applied[0].span(applied[2]))
            for applied in self.call_sites.result_applications(factory)
        ]
        for call in self.call_sites.bound_results(factory):
            out += self._uses(reg, call, reg.scope)
        for (module, _made, scope), call in self.call_sites.results_called(factory):
            if call.args:  # `default(mcp)(t)`: the def's decorator applied to `t` where it is made
                out.append(applied_to(self.names, reg, (module, call, scope), reg.scope))
        return out

    def _uses(self, reg: Registration, value: ast.expr, factory: Scope | None) -> list[Registration]:
        """Where the decorator a name is bound to (`value`: `mcp.tool()` or `h.tool()`) is
        applied: `@tool` on a def, `tool(fn)`. A use the registration scan reads itself (a
        name bound in the same module to a server's decorator: `Scanner.reads`) is left to it."""
        out = []
        for applied in self.call_sites.value_applications(value):
            module, _, written, scope = applied
            if not self.scanner.aliases.reads(module, written, scope):
                out.append(landed_on_def(self.names, reg, applied, factory, module.span(written), value))
        for module, call, scope in self.call_sites.value_calls(value):
            if call.args and not self.scanner.aliases.reads(module, call.func, scope):
                name = reg.name or factory_argument(self.names, reg, value, factory)
                span = module.span(call)
                out.append(
                    Registration(reg.server, reg.kind, call.args[0], module, scope, name, span, "applied")
                )
        return out


def hands_back(reg: Registration) -> bool:
    """Whether a decorator's registration is of what it hands back for each def it decorates,
    which then lands: the def itself (`reg.returns`), or `mcp.add_tool(wrapper)` then `return
    wrapper` (its `functools.wraps` wrapper of the def, `loop_collectors.returned_local`), not
    the wrapper as written."""
    if reg.returns:
        return True
    fn = reg.scope.function if reg.scope is not None else None
    return (
        isinstance(reg.fn, ast.Name)
        and isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        and returned_local(fn) == reg.fn.id
    )


def _key(ps: ParamServer) -> tuple[int, int, str, int]:
    """A server parameter: its function, index, name and holder."""
    return (id(ps.function), ps.index, ps.name, id(ps.holder))


def _made(ps: ParamServer) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef:
    """What the calls filling `ps` call: its function, or the subclass holding a base
    dataclass's field (`WeatherTools(mcp)`)."""
    return ps.holder if ps.holder is not None and isinstance(ps.function, ast.ClassDef) else ps.function
