"""What one tool call does, derived from the graph: run order, consumers, cycles.

The SDK resolves a tool's `Resolve` parameters one after the other, each
resolver's own dependencies first (depth first, in signature order), and runs a
resolver at most once per call however many consumers it has. Every picture
(tree, Mermaid, Graphviz) numbers steps and marks sharing from these functions,
so they all tell the same story.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ...resolver_core.model import Graph, Resolver, Tool

KIND_NOTE = {
    "bound_method": "method",
    "classmethod": "method",
    "callable_instance": "callable object",
    "class": "class",
    "partial": "functools.partial",
    "lambda": "lambda",
}
"""How a resolver that is not a plain function is described (same words static and live)."""
ASKS = {
    "elicit": "asks the user (Elicit)",
    "sample": "asks the client's LLM (Sample)",
    "list_roots": "asks the client for its roots (ListRoots)",
}


@dataclass(slots=True)
class CallPlan:
    """The resolvers one call of a tool runs, in order, and who consumes each."""

    order: list[str] = field(default_factory=list)
    """Resolver ids, dependencies first (the SDK's run order); empty when there is a cycle."""
    consumers: dict[str, list[str]] = field(default_factory=dict)
    """Resolver id -> consumers, as `tool.param` or `resolver.param`."""
    cycles: list[list[str]] = field(default_factory=list)
    """Each cycle as the path of resolver names, first node repeated at the end."""
    in_cycle: set[str] = field(default_factory=set)
    """Ids of the resolvers on some cycle (drawn in red)."""

    def step(self, rid: str) -> int | None:
        """1-based step number of a resolver, or None when it never runs (cycle)."""
        return self.order.index(rid) + 1 if rid in self.order else None

    def shared(self, rid: str) -> bool:
        return len(self.consumers.get(rid, ())) > 1


def call_plan(graph: Graph, tool: Tool) -> CallPlan:
    """Walk the tool's resolvers the way `resolve_arguments` does."""
    plan = CallPlan()
    done: set[str] = set()

    def visit(rid: str, stack: list[str]) -> None:
        if rid in stack:
            names = [_name(graph, r) for r in stack[stack.index(rid) :]]
            plan.cycles.append([*names, _name(graph, rid)])
            plan.in_cycle.update(stack[stack.index(rid) :])
            return
        if rid in done or rid not in graph.resolvers:
            return
        resolver = graph.resolvers[rid]
        for p in resolver.parameters:
            if p.kind == "resolved" and p.resolver:
                plan.consumers.setdefault(p.resolver, []).append(f"{display_name(resolver)}.{p.name}")
                visit(p.resolver, [*stack, rid])
        done.add(rid)
        plan.order.append(rid)

    for p in tool.parameters:
        if p.kind == "resolved" and p.resolver:
            plan.consumers.setdefault(p.resolver, []).append(f"{tool.name}.{p.name}")
            visit(p.resolver, [])
    if plan.cycles:
        plan.order = []  # no order exists: the SDK refuses the tool before running anything
    return plan


def display_name(resolver: Resolver) -> str:
    """`CatalogService.lookup` for a method; a closure's `<locals>` path is noise, its name is enough."""
    return resolver.name if "<locals>" in resolver.qualname else resolver.qualname


def _name(graph: Graph, rid: str) -> str:
    resolver: Resolver | None = graph.resolvers.get(rid)
    return display_name(resolver) if resolver is not None else rid


def inner_type(annotation: str) -> str:
    """`Annotated[Stock, Resolve(f)]` -> `Stock`: the resolver already says where the value comes from."""
    try:
        node = ast.parse(annotation, mode="eval").body
        if isinstance(node, ast.Subscript) and ast.unparse(node.value).rpartition(".")[2] == "Annotated":
            first = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) else node.slice
            return ast.unparse(first)
    except (SyntaxError, RecursionError, MemoryError):  # `int | int | ...` thousands deep: show it as is
        return annotation
    return annotation
