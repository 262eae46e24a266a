"""Lint findings placed on graph nodes, so the tree shows each problem where it is.

A diagnostic lands on the node whose definition is on its line: a parameter
(of the tool or of a resolver), a resolver, or the tool itself. What matches no
node is listed under its tool, or under the server when it names no tool. A
diagnostic that names a tool is shown only in that tool's tree, since the same
resolver can be fine for one tool and broken for another (MCPD002).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import field

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Span
from ...resolver_core.records import slotted

Place = tuple[str, int]


@slotted
class Problems:
    """Diagnostics by place (path, line), each shown once per tool tree."""

    by_place: dict[Place, list[Diagnostic]] = field(default_factory=lambda: defaultdict(list))

    def at(self, span: Span | None, tool: str, shown: set[int], *, precise: bool = False) -> list[Diagnostic]:
        """Unshown diagnostics for `tool` on the line of `span` (`precise`: within its columns too).

        Parameters are matched precisely and before the resolver or tool they belong to,
        since a one-line `def` puts all of them on the same line.
        """
        if span is None:
            return []
        found = [
            d
            for d in self.by_place.get((span.path, span.line), [])
            if d.tool in (None, tool)
            and id(d) not in shown
            and (not precise or span.column <= d.column <= max(span.column, span.end_column))
        ]
        shown.update(id(d) for d in found)
        return found

    def left_for(self, tool: str | None, shown: set[int]) -> list[Diagnostic]:
        """Diagnostics for `tool` (or for no tool, when None) not placed on any node."""
        return [d for ds in self.by_place.values() for d in ds if d.tool == tool and id(d) not in shown]


def find_problems(graph: Graph) -> Problems:
    """Run every lint rule on a static graph and index the results by line."""
    from .. import run_rules

    problems = Problems()
    for d in run_rules(graph):
        problems.by_place[(d.path, d.line)].append(d)
    return problems
