"""MCPD003: a tool parameter whose `Resolve` is wrapped in a union or generic."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph
from ...resolver_core.typeexpr import contains_resolve
from ..base import Invalid, Rule, RuleFix


class ResolveInUnion(Rule):
    code = "MCPD003"
    name = "resolve-in-union"
    FIX = RuleFix(
        "annotate the parameter as `Annotated[T, Resolve(...)]` and drop `| None` and the default",
        fixer="mcpdeps.lint_rules.fixes.resolve_in_union",
        splice="mcpdeps.lint_rules.fixes.spans:resolve_in_union",
        tidies_imports=True,
        safety_note="The SDK never saw the marker inside the union, so the model filled the value; "
        "after the fix the resolver does, as the annotation meant.",
    )
    known_problems = (
        "The fix rewrites `X | None`, `Optional[X]` and `Union[X, None]` around an "
        "`Annotated[T, Resolve(...)]`; a marker deeper inside another type (`list[...]`) is left "
        "to you, and so is a default that cannot go (a parameter after it has one)."
    )
    summary = "`Resolve(...)` is wrapped in a union or generic instead of being the top-level Annotated."
    explanation = (
        "The SDK only honours `Resolve` in a top-level `Annotated[T, Resolve(f)]`. Written as "
        "`Annotated[T, Resolve(f)] | None`, `Optional[...]` or `list[Annotated[...]]`, registration "
        "fails with `wraps Resolve(...) in a union`. A resolved parameter is always filled, so it "
        "never needs `| None` or a default."
    )
    INVALID = [
        Invalid(
            "from typing import Annotated\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Resolve\n\n"
            "mcp = MCPServer('s')\n\n"
            "def who(title: str) -> str:\n    return title\n\n"
            "@mcp.tool()\n"
            "def t(title: str, w: Annotated[str, Resolve(who)] | None = None) -> str:\n    return title\n",
            at=(11, 19, 11, 57),
            fixed=(
                "from typing import Annotated\n"
                "from mcp.server import MCPServer\n"
                "from mcp.server.mcpserver import Resolve\n"
                "\n"
                "mcp = MCPServer('s')\n"
                "\n"
                "def who(title: str) -> str:\n"
                "    return title\n"
                "\n"
                "@mcp.tool()\n"
                "def t(title: str, w: Annotated[str, Resolve(who)]) -> str:\n"
                "    return title\n"
            ),
        )
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
