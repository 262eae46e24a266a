"""Graph walks several rules share: what a tool's call runs, and which names are its arguments."""

from __future__ import annotations

from collections.abc import Iterator

from resolver_core.model import Graph, Resolver, Server, Tool


def tool_argument_names(tool: Tool) -> set[str]:
    """Names a resolver parameter can match: each argument's alias, or its name (never types)."""
    return set(tool.arguments)


def tools_with_resolvers(graph: Graph) -> Iterator[tuple[Server, Tool, list[Resolver]]]:
    """Every tool with the resolvers its registration analyses (SDK order, each once)."""
    for server, tool in graph.tools():
        yield server, tool, graph.reachable(tool)
