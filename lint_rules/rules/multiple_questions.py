"""MCPD004: a resolver whose return annotation asks more than one kind of question."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Resolver, Span
from ...resolver_core.signatures import question_arms
from ...resolver_core.typeexpr import TypeExpr, display
from .._source import found_in, function_node, used_resolvers
from ..base import Invalid, Rule


class MultipleQuestions(Rule):
    code = "MCPD004"
    name = "multiple-questions"
    summary = "A resolver's return annotation has two or more Elicit/Sample/ListRoots arms."
    explanation = (
        "A resolver asks at most one question. `-> Elicit[A] | Elicit[B]` or `-> Sample | ListRoots` "
        "makes registration fail. Split it into one resolver per question and let a third combine them."
    )
    INVALID = [
        Invalid(
            "from typing import Annotated\n"
            "from pydantic import BaseModel\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Elicit, ListRoots, Resolve\n\n"
            "mcp = MCPServer('s')\n\n"
            "class A(BaseModel):\n    ok: bool\n\n"
            "def ask(title: str) -> Elicit[A] | ListRoots:\n    return ListRoots()\n\n"
            "@mcp.tool()\n"
            "def t(title: str, a: Annotated[A, Resolve(ask)]) -> str:\n    return title\n",
            at=(11, 24, 11, 45),
        )
    ]
    VALID = [
        "from typing import Annotated\n"
        "from pydantic import BaseModel\n"
        "from mcp.server import MCPServer\n"
        "from mcp.server.mcpserver import Elicit, Resolve\n\n"
        "mcp = MCPServer('s')\n\n"
        "class A(BaseModel):\n    ok: bool\n\n"
        "def ask(title: str) -> A | Elicit[A]:\n    return Elicit('Sure?', A)\n\n"
        "@mcp.tool()\n"
        "def t(title: str, a: Annotated[A, Resolve(ask)]) -> str:\n    return title\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for resolver, tool in used_resolvers(graph):
            arms, annotation = found_in(graph, self.code, resolver, _arms)
            span = graph.located(tool, resolver, annotation) if len(arms) > 1 else None
            if span is not None:
                yield self.diagnostic(
                    span,
                    f"resolver {resolver.name!r} return annotation has {len(arms)} question arms "
                    f"({', '.join(display(a) for a in arms)}); a resolver asks one question",
                    tool=tool.name,
                    resolver=resolver,
                    help="split it into separate resolvers, one question each",
                )


def _arms(resolver: Resolver) -> tuple[list[TypeExpr], Span | None]:
    """The question arms of a resolver's return annotation, and where it is written."""
    return question_arms(resolver.return_type, through_annotated=False), _return_annotation(resolver)


def _return_annotation(resolver: Resolver) -> Span | None:
    """Where the annotation at fault is: `-> Elicit[A] | ListRoots`, not the `def` line (the
    resolver's span when it has no annotation node of its own, a class's `__call__` say)."""
    node = function_node(resolver)
    returns = getattr(node, "returns", None)
    if returns is None or resolver.span is None or not resolver.anchored:
        return resolver.span
    return Span.of(resolver.span.path, returns)
