"""MCPD102: `Resolve` on a prompt or resource parameter, which the SDK silently ignores."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph
from ...resolver_core.typeexpr import nested_resolve
from ..base import Invalid, Rule


class ResolveOutsideTool(Rule):
    code = "MCPD102"
    name = "resolve-outside-tool"
    severity = "warning"
    summary = (
        "`Resolve(...)` on a prompt or resource parameter: the SDK ignores it and the resolver never runs."
    )
    explanation = (
        "Only tools resolve dependencies. On an `@server.prompt()` or `@server.resource(...)` "
        "function the SDK accepts `Annotated[T, Resolve(f)]` without complaint, never calls `f`, and "
        "treats the parameter as an ordinary argument: the client must supply it (or the default "
        "is used), so the value the resolver was meant to compute is whatever the caller sends.\n\n"
        "Fix: compute the value inside the prompt/resource body (call the function directly), or "
        "expose the behaviour as a tool if it needs resolvers."
    )
    INVALID = [
        Invalid(
            "from typing import Annotated\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Resolve\n\n"
            "mcp = MCPServer('s')\n\n"
            "def house_style() -> str:\n    return 'concise'\n\n"
            "@mcp.prompt()\n"
            "def review(code: str, style: Annotated[str, Resolve(house_style)] = 'any') -> str:\n"
            "    return f'Review this ({style}): {code}'\n",
            at=(11, 23, 11, 66),
        )
    ]
    VALID = [
        "from mcp.server import MCPServer\n\n"
        "mcp = MCPServer('s')\n\n"
        "def house_style() -> str:\n    return 'concise'\n\n"
        "@mcp.prompt()\n"
        "def review(code: str) -> str:\n"
        "    return f'Review this ({house_style()}): {code}'\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for server in graph.servers:
            for handler in server.handlers:
                for p in handler.parameters:
                    marker = nested_resolve(p.type)
                    if marker is None or p.span is None:
                        continue
                    target = marker.module.segment(marker.target) if marker.target is not None else "?"
                    yield self.diagnostic(
                        p.span,
                        f"Resolve({target}) on parameter {p.name!r} of {handler.kind} "
                        f"{handler.function!r} is ignored: only tools run resolvers, so {target} never "
                        f"runs and {p.name!r} is an ordinary argument the client supplies",
                        help=f"call {target}() in the {handler.kind} body instead, or make it a tool",
                    )
