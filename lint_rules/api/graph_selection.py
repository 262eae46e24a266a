"""Narrow a graph to the servers and tools the user asked for (`--server`, `--tool`).

A name that matches nothing is a usage error that lists what exists, so a typo
never silently prints an empty graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...resolver_core.model import Graph
from ...resolver_core.suggest import did_you_mean
from . import RequestError


def _choices(names: Sequence[str]) -> str:
    return ", ".join(sorted(set(names))) or "none"


def _unknown(kind: str, unknown: Sequence[str], known: Sequence[str]) -> RequestError:
    close = did_you_mean(unknown[0], known) if len(unknown) == 1 else ""
    return RequestError(
        f"No {kind} {', '.join(map(repr, unknown))} was found{close}; "
        f"the {kind.split()[0]}s found are: {_choices(known)}."
    )


def select(graph: Graph, servers: Sequence[str] = (), tools: Sequence[str] = ()) -> Graph:
    """A copy of `graph` holding only the chosen servers, each with only the chosen tools."""
    kept = list(graph.servers)
    if servers:
        known = [s.variable for s in kept]
        unknown = [v for v in servers if v not in known]
        if unknown:
            raise _unknown("server variable", unknown, known)
        kept = [s for s in kept if s.variable in servers]
    if tools:
        known = [t.name for s in kept for t in s.tools]
        unknown = [n for n in tools if n not in known]
        if unknown:
            raise _unknown("tool named", unknown, known)
        kept = [replace(s, tools=[t for t in s.tools if t.name in tools]) for s in kept]
        kept = [s for s in kept if s.tools]
    return replace(graph, servers=kept)
