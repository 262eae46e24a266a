"""Where a factory's registrations on its own server land: on the server each call makes.

`def build(): server = MCPServer("x"); @server.tool() def t(...); return server` registers
`t` when it is called, on the server that call makes and hands out: `mcp = build()` then
`@mcp.tool() def t(...)` registers twice on one server (the SDK logs `Tool already exists: t`
and keeps the factory's). So a registration on such a local server (directly, or through a
helper the factory hands it to) lands on the server of each call of the factory
(`called_servers.made_here`: one per call, as two `register(MCPServer("x"))` are two), with
the ways that call comes to run (`arms.py`). A factory nothing in the project calls keeps its
tools on its local server: they are checked as if it ran, once.

The calls are anywhere in the project, so the factory's record depends on its callers, as a
`register(server)` helper's does (`Graph.coupled`, set by the builder).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .arms import Way, called
from .called_servers import factory_returning, made_here
from .model import CallChain, Graph, Server

if TYPE_CHECKING:
    from .reach import Reach
    from .servers import Servers


def each_call(reach: Reach, server: Server) -> list[tuple[Server, list[Way]]] | None:
    """The servers the calls of the factory returning `server` make, each with the ways the
    factory's body runs for it; None when `server` is no factory's returned local server or
    nothing calls the factory (its tools stay on it)."""
    factory = factory_returning(reach.servers, server)
    if factory is None:
        return None
    out: dict[int, tuple[Server, list[Way]]] = {}
    for module, call, scope in reach.call_sites.sites(factory):
        made = made_here(reach.servers, module, call, scope)
        if made is None or not any(m is made and s is server for m, s in reach.servers.calls_made):
            continue  # (a call of another subclass, recorded under the base's `__init__`)
        arms, site = reach.call_sites.arms(call), reach.order.site(module, call, scope)
        ways = out.setdefault(id(made), (made, []))[1]
        ways += [called(way, arms, site) for way in reach.bodies.ways(module, scope, made, calling=True)]
    return list(out.values()) or None


def hands_out(servers: Servers, server: Server) -> bool:
    """Whether `server` is a factory's local server that its calls hand out: the tools on it
    depend on the factory's callers, wherever they are."""
    return factory_returning(servers, server) is not None


def follow_factories(reach: Reach) -> None:
    """Scan the modules of the factories whose calls the scanned modules made servers of: a
    factory's tools are on the server its call makes (`mcp = build()` in `app/main.py`, `build`
    in `app/factory.py`), and meet what the caller registers there even when only the caller's
    file was given (pre-commit), as `Reach.follow_passed_servers` follows a server handed to a
    helper. Not into another slice's files (`Confined.withheld`): their records hold those."""
    scanner = reach.scanner
    withheld = scanner.confined.withheld if scanner.confined is not None else frozenset()
    done = 0
    while done < len(reach.servers.calls_made):
        made, local = reach.servers.calls_made[done]
        done += 1
        scope = reach.servers.bound_in.get(id(local))
        if scope is None or made.made_at is None or scope.module.path in scanner.scanned_paths:
            continue
        caller = reach.names.project.by_display(made.made_at.path)
        if scope.module.path in withheld:
            if caller is not None:
                reach.names.project.withhold(caller.path, scope.module.path)
            continue
        scanner.handing.passed_by.setdefault(scope.module.display, made.made_at.path)
        scanner.scan(scope.module)  # may make more servers of factories' calls: `done` goes on


def made_first(server: Server, calls: CallChain) -> bool:
    """Whether a registration on `server` that runs through `calls` is the factory's that made
    it (the way starts at the call making it, `Server.made_at`): it runs before anything is
    registered on the server the call returns, wherever that is written."""
    made = server.made_at
    return made is not None and bool(calls) and calls[0][:3] == (made.path, made.line, made.column - 1)


def settle(servers: Servers, graph: Graph) -> None:
    """Once every registration landed: a factory's local server whose calls each made their
    own is not a server of its own (the factory's tools are on those; left empty, it would be
    listed beside them); what the factory removes from it, each call's server removes; and the
    factory's tools come first on each (`made_first`), as the SDK registered them."""
    for made, local in servers.calls_made:
        made.removes = made.removes or local.removes
        made.tools.sort(key=lambda tool: not made_first(made, tool.calls[0] if tool.calls else ()))
    superseded = {id(local) for _, local in servers.calls_made}
    graph.servers[:] = [s for s in graph.servers if id(s) not in superseded or s.tools or s.handlers]
