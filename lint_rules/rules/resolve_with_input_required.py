"""MCPD005: a tool with resolved parameters that also returns `InputRequiredResult`."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph
from ...resolver_core.typeexpr import TAliasType, TAnnotated, TClass, TGeneric, TRef, TUnion, TypeExpr
from ..base import Invalid, Rule


def has_input_required_arm(t: TypeExpr | None, depth: int = 0) -> bool:
    """The SDK's `_has_input_required_arm`: through Annotated, type aliases and unions."""
    if t is None or depth > 30:
        return False
    if isinstance(t, TAnnotated):
        return has_input_required_arm(t.inner, depth + 1)
    if isinstance(t, TAliasType):
        return has_input_required_arm(t.value, depth + 1)
    if isinstance(t, TGeneric) and isinstance(t.origin, TAliasType):
        # `Alias[X]` forwards `__value__` to the alias: its value, type variables unsubstituted.
        return has_input_required_arm(t.origin.value, depth + 1)
    if isinstance(t, TUnion):
        return any(has_input_required_arm(a, depth + 1) for a in t.args)
    if isinstance(t, TRef):
        return t.qualname.rpartition(".")[2] == "InputRequiredResult"
    if isinstance(t, TClass):
        # A project subclass: judged by its direct bases' names (no evaluation needed for this rule).
        return any(ast.unparse(b).rpartition(".")[2] == "InputRequiredResult" for b in t.node.bases)
    return False


class ResolveWithInputRequired(Rule):
    code = "MCPD005"
    name = "resolve-with-input-required"
    summary = "A tool combines Resolve(...) parameters with an InputRequiredResult return."
    explanation = (
        "A call has one input-required channel: either resolvers drive the multi-round flow, or the "
        "tool body does by returning `InputRequiredResult`. The SDK refuses a tool that declares both. "
        "Move the question into a resolver returning `Elicit(...)`, or drop the resolved parameters."
    )
    INVALID = [
        Invalid(
            "from typing import Annotated\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Resolve\n"
            "from mcp_types import InputRequiredResult\n\n"
            "mcp = MCPServer('s')\n\n"
            "def who(title: str) -> str:\n    return title\n\n"
            "@mcp.tool()\n"
            "def t(title: str, w: Annotated[str, Resolve(who)]) -> str | InputRequiredResult:\n    return w\n",
            at=(12, 1, 12, 1),
        )
    ]
    VALID = [
        "from mcp.server import MCPServer\n"
        "from mcp_types import InputRequiredResult\n\n"
        "mcp = MCPServer('s')\n\n"
        "@mcp.tool()\n"
        "def t(title: str) -> str | InputRequiredResult:\n    return title\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for _, tool in graph.tools():
            if tool.resolved and has_input_required_arm(tool.return_type) and tool.span is not None:
                yield self.diagnostic(
                    tool.span,
                    f"tool {tool.name!r} combines Resolve(...) parameters ({', '.join(tool.resolved)}) with an "
                    "InputRequiredResult return; the SDK refuses it",
                    tool=tool.name,
                    help="ask through a resolver returning Elicit(...) instead of returning InputRequiredResult",
                )
