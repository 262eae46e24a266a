"""Hover text: the part of the `mcpdeps graph` tree under the cursor, as Markdown.

The same story as the terminal tree (`cli/graph/render.py`), from the same walk
(`cli/graph/walk.py`: run order, sharing, cycles) and the same words, in nested
Markdown lists instead of rich markup: for a tool, what the model sees, what it never
sees (each resolved parameter expanded into its resolver), the run order and the
diagnostics about it; for a resolved parameter or a `Resolve(fn)`, that resolver's
subtree; for a resolver's `def`, its subtree and the tools that run it.
"""

from __future__ import annotations

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Parameter, Resolver, Span, Tool
from ...resolver_core.plan import ResolverPlan
from ..graph.walk import ASKS, KIND_NOTE, consumer_names, cycle_names, display_name, inner_type
from .lookup import Target, tools_running

MAX_DEPTH = 6
"""Deeper resolver chains are cut (a hover is read at a glance)."""


def _code(text: str) -> str:
    fence = "``" if "`" in text else "`"
    return f"{fence}{text}{fence}"


def _typed(p: Parameter) -> str:
    text = p.alias or p.name
    if p.annotation:
        text += f": {inner_type(p.annotation) if p.kind == 'resolved' else p.annotation}"
    if p.default is not None:
        text += f" = {p.default}"
    return _code(text)


def _where(span: Span | None) -> str:
    return f"{span.path}:{span.line}" if span is not None else "?"


class _Writer:
    """Markdown lines for one hover; resolvers already expanded are named, not repeated."""

    def __init__(self, graph: Graph, tool: Tool | None, diagnostics: list[Diagnostic]) -> None:
        self.graph = graph
        self.tool = tool
        self.plan: ResolverPlan | None = graph.plan(tool) if tool is not None else None
        self.diagnostics = diagnostics
        self.lines: list[str] = []
        self.expanded: set[str] = set()

    def add(self, depth: int, text: str) -> None:
        self.lines.append("  " * depth + f"- {text}")

    def parameter(self, p: Parameter, depth: int, stack: list[str]) -> None:
        if p.kind == "context":
            self.add(depth, f"{_typed(p)} ← the request's Context")
        elif p.kind == "tool_argument":
            known = (
                self.tool is None
                or p.name in self.tool.arguments
                or any(q.name == p.name and q.kind == "tool_argument" for q in self.tool.parameters)
            )
            self.add(
                depth,
                f"{_typed(p)} ← {'the tool argument' if known else '**no tool argument of that name**'}",
            )
        elif p.kind == "unclassified" or not p.resolver:
            self.add(depth, f"{_typed(p)} ← **cannot be filled**: no Context, Resolve or tool argument")
        else:
            self.resolved(p, depth, stack)

    def resolved(self, p: Parameter, depth: int, stack: list[str]) -> None:
        rid = p.resolver or ""
        resolver = self.graph.resolvers.get(rid)
        if resolver is None:
            self.add(depth, f"{_typed(p)} ← {_code(rid)} (unknown)")
            return
        head = f"{_typed(p)} ← **{display_name(resolver)}**"
        if rid in stack:
            loop = [*stack[stack.index(rid) :], rid]
            path = " -> ".join(display_name(self.graph.resolvers[r]) for r in loop)
            self.add(depth, f"{head} ⟲ **cycle: {path}**")
            return
        step = self.plan.step(rid) if self.plan is not None else None
        if rid in self.expanded:
            self.add(depth, f"{head} · step {step} already run: the same value, not a second call")
            return
        self.expanded.add(rid)
        self.add(depth, f"{head}{f' · step {step}' if step else ''} · {self.describe(resolver)}")
        if self.tool is not None and self.plan is not None and self.plan.shared(rid):
            consumers = consumer_names(self.graph, self.tool, self.plan, rid)
            self.add(depth + 1, f"shared: runs once per call for {', '.join(consumers)}")
        if depth >= MAX_DEPTH:
            self.add(depth + 1, "…")
            return
        for child in resolver.parameters:
            self.parameter(child, depth + 1, [*stack, rid])
        for q in resolver.questions:
            self.add(depth + 1, f"? {ASKS[q.kind]}" + (f" {_code(q.message)}" if q.message else ""))
            if q.model:
                fields = ", ".join(f"{name}: {annotation}" for name, annotation in q.fields)
                self.add(depth + 2, f"answer model **{q.model}**" + (f" ({_code(fields)})" if fields else ""))

    def describe(self, resolver: Resolver) -> str:
        kind = "async" if resolver.is_async else "sync, in a worker thread"
        if resolver.problem:
            kind = resolver.problem
        note = f"{KIND_NOTE[resolver.kind]} · " if resolver.kind in KIND_NOTE else ""
        return f"{note}{kind} · {_where(resolver.span)}"

    def problems(self) -> None:
        """The diagnostics about what the hover shows (chosen by the caller)."""
        found = self.diagnostics
        if found:
            self.lines.append("")
            self.lines.append("**problems**")
            for d in found:
                self.add(0, f"{d.code} {d.name}: {d.message} ({d.path}:{d.line})")


def tool_markdown(graph: Graph, tool: Tool, diagnostics: list[Diagnostic]) -> str:
    """The whole tree of one tool."""
    w = _Writer(graph, tool, diagnostics)
    kind = "async" if tool.is_async else "sync"
    w.lines.append(f"**{tool.name}** · tool · {kind} · {_where(tool.span)}")
    w.lines.append("")
    w.lines.append("**the model sees**")
    arguments = [p for p in tool.parameters if p.kind == "tool_argument"]
    for p in arguments:
        w.add(0, _typed(p) + ("" if p.default is not None else " required"))
    if not arguments:
        w.add(0, "no arguments")
    hidden = [p for p in tool.parameters if p.kind != "tool_argument"]
    if hidden:
        w.lines.append("")
        w.lines.append("**the model never sees**")
        for p in hidden:
            w.parameter(p, 0, [])
    assert w.plan is not None
    if w.plan.order:
        steps = [display_name(graph.resolvers[rid]) for rid in w.plan.order]
        w.lines.append("")
        w.lines.append(
            "**run order** " + " → ".join(f"{i}. {s}" for i, s in enumerate([*steps, tool.name], 1))
        )
    for cycle in map(cycle_names, w.plan.cycles):
        w.lines.append(f"⟲ **cycle {' -> '.join(cycle)}**: the SDK refuses this tool")
    w.problems()
    return "\n".join(w.lines)


def resolver_markdown(graph: Graph, target: Target, diagnostics: list[Diagnostic]) -> str:
    """A resolved parameter's (or a `Resolve(fn)`'s, or a resolver's own) subtree."""
    resolver = target.resolver
    assert resolver is not None
    w = _Writer(graph, target.tool, diagnostics)
    if target.parameter is not None:
        w.resolved(target.parameter, 0, [])
    else:
        w.lines.append(f"**{display_name(resolver)}** · resolver · {w.describe(resolver)}")
        for p in resolver.parameters:
            w.parameter(p, 0, [resolver.id])
    users = [t.name for _, t in tools_running(graph, resolver)]
    if users:
        w.lines.append("")
        w.lines.append(f"**run by** {', '.join(users)}")
    w.problems()
    return "\n".join(w.lines)


def hover_markdown(graph: Graph, target: Target, diagnostics: list[Diagnostic]) -> str:
    if target.kind == "tool" and target.tool is not None:
        return tool_markdown(graph, target.tool, diagnostics)
    return resolver_markdown(graph, target, diagnostics)
