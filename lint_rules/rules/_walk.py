"""Graph walks several rules share: what a tool's call runs, and which names are its arguments."""

from __future__ import annotations

from collections.abc import Iterator

from ...resolver_core.model import Graph, ProblemKind, Resolver, Server, Span, Tool


def tool_argument_names(tool: Tool) -> set[str]:
    """Names a resolver parameter can match: each argument's alias, or its name (never types)."""
    return set(tool.arguments)


def tools_with_resolvers(graph: Graph) -> Iterator[tuple[Server, Tool, list[Resolver]]]:
    """Every tool with the resolvers its registration analyses (SDK order, each once)."""
    for server, tool in graph.tools():
        yield server, tool, graph.reachable(tool)


def resolver_problems(graph: Graph, kind: ProblemKind) -> Iterator[tuple[Tool, Resolver, Span]]:
    """Each tool's resolvers whose `problem` is of this kind, with where to report it for that
    tool (`invalid` is MCPD007, `opaque` MCPD113: they differ only in their words)."""
    for _, tool, resolvers in tools_with_resolvers(graph):
        for resolver in resolvers:
            if resolver.problem_kind == kind:
                span = graph.located(tool, resolver, resolver.span)
                if span is not None:
                    yield tool, resolver, span
