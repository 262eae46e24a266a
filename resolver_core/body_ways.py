"""The ways a function body comes to run (`arms.Way`): each chain of calls reaching it.

A registration lands once per way its body runs: from module-level code, from a function
nothing calls (an entry point), through each call of each caller in turn. A call of a helper's
parameter that stands for a function the helper's call passes (`loader(mcp)` for
`_register_toolset("csv", csv.register_tools)`, `handed_registrars.py`) runs only in that call
of the helper, not in every call of it: its ways go through that one call alone.
"""

from __future__ import annotations

import ast

from .arms import ENTRY, MAX_WAYS, Way, called, entry
from .arms import module as arms_module
from .call_order import CallOrder
from .call_sites import CallSite, CallSites
from .model import Server
from .source import ParsedModule
from .symbols import Scope

_MAX_HOPS = 32
"""Chains of calls deeper than this are not followed."""


class BodyWays:
    """The ways each body runs, from the project's call sites."""

    def __init__(self, call_sites: CallSites, order: CallOrder) -> None:
        self.call_sites = call_sites
        self.order = order

    def ways(
        self,
        module: ParsedModule,
        scope: Scope | None,
        server: Server,
        *,
        calling: bool = False,
        through: ast.Call | None = None,
    ) -> list[Way]:
        """The ways the body `scope` (of `module`) is in runs with `server` (`arms.Way`): for a
        module-level server, each chain of calls reaching it from module-level code or from a
        function nothing calls (`setup_fast()` in an `if`, in `main()`); for one made in a
        function, one (each call makes its own). `calling`: the body calls a helper, whose
        ways these are, starting where it is written (`arms.module`, `arms.entry`); `through`:
        that call, when it runs only in one call of the body (`CallSites.handed`)."""
        if server.local:
            return [ENTRY]
        handed = self.call_sites.handed.through(through) if through is not None else None
        if handed is not None:
            return self._handed(handed, {}, int(calling))
        return self._ways(module, scope, {}, int(calling))

    def _handed(
        self, handed: tuple[CallSite, int, ast.expr], done: dict[int, list[Way] | None], hops: int
    ) -> list[Way]:
        """The ways through the call of a helper passing the function its parameter's call
        calls, then through that function's place among the values passed (the order a loop
        over them calls them in: `CallOrder.element`)."""
        return [self.placed(way, handed) for way in self._through(handed[0], done, hops)]

    def placed(self, way: Way, handed: tuple[CallSite, int, ast.expr] | None) -> Way:
        """`way` through the call of a helper `handed` names, then through the place of the
        function among the values it passes (none when `handed` is None)."""
        if handed is None:
            return way
        (at, call, _), index, passed = handed
        return called(way, (), self.order.element(at, call, index, passed))

    def _through(self, site: CallSite, done: dict[int, list[Way] | None], hops: int) -> list[Way]:
        """The ways through one call site: those of the body it is written in (through the one
        call of that body it runs in, for a helper's call of a function passed to it), then it."""
        at, call, outer = site
        arms, written = self.call_sites.arms(call), self.order.site(at, call, outer)
        handed = self.call_sites.handed.through(call)
        body = self._handed(handed, done, hops + 1) if handed is not None and hops <= _MAX_HOPS else None
        return [called(way, arms, written) for way in body or self._ways(at, outer, done, hops + 1)]

    def _ways(
        self, module: ParsedModule, scope: Scope | None, done: dict[int, list[Way] | None], hops: int
    ) -> list[Way]:
        """`ways` of one body; `done`: per function, its ways (None while they are being read:
        a function reached again through its own callers runs as if nothing called it)."""
        fn = scope.function if scope is not None else None
        if fn is None and hops:
            return [arms_module(module.display)]
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) or hops > _MAX_HOPS:
            return [ENTRY]
        if id(fn) in done:
            return done[id(fn)] or [ENTRY]
        done[id(fn)] = None
        ways: list[Way] = []
        for site in self.call_sites.sites(fn):
            ways += self._through(site, done, hops)
            if len(ways) >= MAX_WAYS:
                break
        if not ways:  # nothing calls it: an entry point, for the helpers it calls (`arms.entry`)
            ways = [entry(module.display, fn) if hops else ENTRY]
        done[id(fn)] = ways = ways[:MAX_WAYS]
        return ways
