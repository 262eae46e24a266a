"""How the pictures word what one tool call does.

The SDK resolves a tool's `Resolve` parameters one after the other, each
resolver's own dependencies first (depth first, in signature order), and runs a
resolver at most once per call however many consumers it has. That walk is the
tool's plan (`Graph.plan`, `resolver_core/plan.py`), made once for every reader; the
tree and the editor's hover number steps and mark sharing from it, and these
functions name its resolvers and consumers the same way in both.
"""

from __future__ import annotations

import ast

from ...resolver_core.model import Graph, Resolver, Tool
from ...resolver_core.plan import ResolverPlan, Step

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


def consumer_names(graph: Graph, tool: Tool, plan: ResolverPlan, rid: str) -> list[str]:
    """Who takes a resolver's value in one call, as `tool.param` or `resolver.param`."""
    return [
        f"{tool.name if c.resolver is None else _name(graph, c.resolver)}.{c.parameter.name}"
        for c in plan.consumers.get(rid, ())
    ]


def cycle_names(cycle: list[Step]) -> list[str]:
    """A cycle of the plan as the path of resolver names, the first repeated at the end."""
    return [display_name(r) for r, _ in cycle]


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
