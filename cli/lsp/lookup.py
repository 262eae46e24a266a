"""What is at a position in a document, in graph terms: a tool, a parameter, a `Resolve(fn)`
or a resolver's definition.

The graph already knows every place the editor asks about: tools and resolvers keep the
span of their `def`, tool registrations the span of their decorator, parameters the span
of their name and annotation, and a `Resolve(fn)` marker the span of its call (in the
module that wrote it: an alias `StockDep = Annotated[int, Resolve(f)]` points at the alias
line). The innermost place containing the cursor wins.
"""

from __future__ import annotations

from typing import Literal

from ...resolver_core.model import Graph, Parameter, Resolver, Server, Span, Tool
from ...resolver_core.records import slotted
from ...resolver_core.typeexpr import resolve_marker

Kind = Literal["tool", "parameter", "resolve", "resolver"]


@slotted
class Target:
    """The graph node under the cursor."""

    kind: Kind
    span: Span
    tool: Tool | None = None
    server: Server | None = None
    parameter: Parameter | None = None
    resolver: Resolver | None = None
    """The resolver a `resolve`/`parameter` target is filled by, or the `resolver` defined here."""


def _contains(span: Span | None, path: str, line: int, column: int, whole_line: bool = False) -> bool:
    if span is None or span.path != path:
        return False
    if whole_line:
        return span.line == line
    after_start = (line, column) >= (span.line, span.column)
    before_end = (line, column) <= (span.end_line, span.end_column)
    return after_start and before_end


def _size(span: Span) -> tuple[int, int]:
    return span.end_line - span.line, span.end_column - span.column


def _parameter_targets(
    graph: Graph, params: list[Parameter], path: str, line: int, column: int
) -> list[Target]:
    found = []
    for p in params:
        resolver = graph.resolvers.get(p.resolver) if p.kind == "resolved" and p.resolver else None
        marker = resolve_marker(p.type) if resolver is not None else None
        if marker is not None and _contains(marker.span, path, line, column):
            assert marker.span is not None
            found.append(Target("resolve", marker.span, parameter=p, resolver=resolver))
        elif p.span is not None and _contains(p.span, path, line, column):
            found.append(Target("parameter", p.span, parameter=p, resolver=resolver))
    return found


def target_at(graph: Graph, path: str, line: int, column: int) -> Target | None:
    """The innermost graph node at (line, column) of `path` (1-based), if any."""
    found: list[Target] = []
    for server, tool in graph.tools():
        for t in _parameter_targets(graph, tool.parameters, path, line, column):
            t.tool, t.server = tool, server
            found.append(t)
        for span in (tool.span, tool.registration):
            if span is not None and _contains(span, path, line, column, whole_line=True):
                found.append(Target("tool", span, tool=tool, server=server))
    for resolver in graph.resolvers.values():
        found.extend(_parameter_targets(graph, resolver.parameters, path, line, column))
        if (
            resolver.anchored
            and resolver.span is not None
            and _contains(resolver.span, path, line, column, True)
        ):
            found.append(Target("resolver", resolver.span, resolver=resolver))
    if not found:
        return None
    rank = {"resolve": 0, "parameter": 1, "resolver": 2, "tool": 2}
    return min(found, key=lambda t: (rank[t.kind], _size(t.span)))


def tools_running(graph: Graph, resolver: Resolver) -> list[tuple[Server, Tool]]:
    """Every tool whose call runs `resolver` (directly or through other resolvers)."""
    return [(s, t) for s, t in graph.tools() if any(r.id == resolver.id for r in graph.reachable(t))]
