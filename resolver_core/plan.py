"""One tool's resolver plan: the walk the SDK does once when it registers the tool.

`build_resolver_plans` (mcp/server/mcpserver/resolve.py) analyses a tool's resolvers depth
first from its `Resolve` parameters in signature order, each resolver once however many
consumers it has, and refuses the tool on the first resolver it re-enters. Every reader of
the graph needs the same walk: the lint rules (which resolvers a tool runs, its cycles), the
pictures and the editor's hover (run order, sharing), the serve banner (what a call runs).
So it is walked once per tool, here, and kept on the graph (`Graph.plan`); every reader
takes its facts from the plan instead of walking again.

The facts are neutral: resolver ids, parameters and spans. How they are shown (`tool.param`,
closures by their short name, rule codes) is the reader's business.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from .records import slotted

if TYPE_CHECKING:
    from .model import Parameter, Resolver, Span, Tool

Step = tuple["Resolver", "Parameter"]
"""A resolver and the parameter through which the walk reached it."""


@slotted
class Consumer:
    """A parameter filled by a resolver: the tool's own (`resolver` None) or a resolver's."""

    resolver: str | None
    """The consuming resolver's id; None when the tool itself consumes the value."""
    parameter: Parameter


@slotted
class ResolverPlan:
    """What registering one tool analyses, and what one call of it runs."""

    reached: list[Resolver] = field(default_factory=list)
    """Every resolver the call runs, each once, in the order the SDK analyses them (a resolver
    before its dependencies: the SDK's plans, in insertion order)."""
    order: list[str] = field(default_factory=list)
    """Resolver ids in run order (dependencies first); empty when there is a cycle, since the
    SDK refuses such a tool before anything runs."""
    consumers: dict[str, list[Consumer]] = field(default_factory=dict)
    """Resolver id -> the parameters its value fills, in the order the walk met them."""
    cycles: list[list[Step]] = field(default_factory=list)
    """Each back edge the walk met, as the path from the re-entered resolver back to itself
    (first resolver repeated last, with the parameter that closes the loop)."""
    in_cycle: set[str] = field(default_factory=set)
    """Ids of the resolvers on some cycle."""
    named_at: dict[str, Span | None] = field(default_factory=dict)
    """Resolver id -> the parameter span through which the walk first reached it: where the
    tool's own graph names it (what locates findings on a resolver without source)."""

    def step(self, rid: str) -> int | None:
        """1-based step number of a resolver in a call, or None when it never runs."""
        return self.order.index(rid) + 1 if rid in self.order else None

    def shared(self, rid: str) -> bool:
        """Its value fills several parameters: it still runs once per call."""
        return len(self.consumers.get(rid, ())) > 1


def plan_tool(resolvers: dict[str, Resolver], tool: Tool) -> ResolverPlan:
    """The plan of `tool` over a graph's resolvers (`Graph.plan` keeps it)."""
    walk = _Walk(resolvers, tool)
    for p in tool.parameters:
        if p.kind == "resolved" and p.resolver:
            walk.edge(None, p)
    if walk.plan.cycles:
        walk.plan.order = []
    return walk.plan


class _Walk:
    """The depth-first walk (a class, not a nested function calling itself: that would be a
    reference cycle holding the graph, freed only by the paused cyclic collector)."""

    def __init__(self, resolvers: dict[str, Resolver], tool: Tool) -> None:
        self.resolvers = resolvers
        self.late = tool.late_resolvers
        self.plan = ResolverPlan()
        self.path: list[Step] = []
        self.done: set[str] = set()

    def edge(self, consumer: str | None, via: Parameter) -> None:
        """`via` (a resolved parameter of the tool or of `consumer`) asks for its resolver."""
        rid = via.resolver or ""
        self.plan.consumers.setdefault(rid, []).append(Consumer(consumer, via))
        resolver = self.resolvers.get(rid)
        if resolver is None:
            return  # unknown: reported by the rules that read `via`, never run
        on_path = [r.id for r, _ in self.path]
        if rid in on_path:
            loop = self.path[on_path.index(rid) :]
            self.plan.cycles.append([*loop, (resolver, via)])
            self.plan.in_cycle.update(r.id for r, _ in loop)
            return
        if rid in self.done:
            return
        self.plan.reached.append(resolver)
        self.plan.named_at[rid] = via.span
        self.path.append((resolver, via))
        if rid not in self.late:  # the SDK reads no hints for it at this registration
            for p in resolver.parameters:
                if p.kind == "resolved" and p.resolver:
                    self.edge(rid, p)
        self.path.pop()
        self.done.add(rid)
        self.plan.order.append(rid)
