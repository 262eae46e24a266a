"""MCPD003: a tool parameter whose `Resolve` is wrapped in a union or generic."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph
from ...resolver_core.typeexpr import contains_resolve
from ..base import Rule


class ResolveInUnion(Rule):
    code = "MCPD003"
    name = "resolve-in-union"
    summary = "`Resolve(...)` is wrapped in a union or generic instead of being the top-level Annotated."
    explanation = (
        "The SDK only honours `Resolve` in a top-level `Annotated[T, Resolve(f)]`. Written as "
        "`Annotated[T, Resolve(f)] | None`, `Optional[...]` or `list[Annotated[...]]`, registration "
        "fails with `wraps Resolve(...) in a union`. A resolved parameter is always filled, so it "
        "never needs `| None` or a default."
    )
    INVALID = [
        "from typing import Annotated\n"
        "from mcp.server import MCPServer\n"
        "from mcp.server.mcpserver import Resolve\n\n"
        "mcp = MCPServer('s')\n\n"
        "def who(title: str) -> str:\n    return title\n\n"
        "@mcp.tool()\n"
        "def t(title: str, w: Annotated[str, Resolve(who)] | None = None) -> str:\n    return title\n"
    ]
    VALID = [
        "from typing import Annotated\n"
        "from mcp.server import MCPServer\n"
        "from mcp.server.mcpserver import Resolve\n\n"
        "mcp = MCPServer('s')\n\n"
        "def who(title: str) -> str | None:\n    return title\n\n"
        "@mcp.tool()\n"
        "def t(title: str, w: Annotated[str | None, Resolve(who)]) -> str:\n    return title\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for _, tool in graph.tools():
            if tool.hints_error:
                continue
            for p in tool.parameters:
                if p.kind != "resolved" and contains_resolve(p.type) and p.span is not None:
                    yield self.diagnostic(
                        p.span,
                        f"parameter {p.name!r} of tool {tool.name!r} wraps Resolve(...) in a union or generic; "
                        "the SDK refuses it",
                        tool=tool.name,
                        help="annotate the parameter directly as `Annotated[T, Resolve(...)]` (no `| None`, no default)",
                    )
