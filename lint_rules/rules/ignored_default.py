"""MCPD111: a default value on a resolved parameter; the resolver always supplies the value."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Parameter, Span
from .._source import ParameterSite, every_parameter
from ..base import Invalid, Rule, RuleFix

_HEADER = (
    "from typing import Annotated\n"
    "from mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Resolve\n\n"
    "mcp = MCPServer('s')\n\n"
    "def locale(title: str) -> str:\n    return 'fr'\n\n"
)


class IgnoredDefault(Rule):
    code = "MCPD111"
    name = "ignored-default"
    FIX = RuleFix(
        "remove the default: the resolver always provides the value",
        fixer="mcpdeps.lint_rules.fixes.ignored_default",
        splice="mcpdeps.lint_rules.fixes.spans:ignored_default",
        safety_note="The SDK always fills a resolved parameter, so the default was never used.",
    )
    known_problems = (
        "The default stays when removing it would be a syntax error (an earlier positional "
        "parameter has a default)."
    )
    severity = "info"
    summary = "A resolved parameter has a default value that is never used."
    explanation = (
        "A parameter annotated `Annotated[T, Resolve(f)]` is always filled by running `f`: the SDK "
        "never falls back to the default, and a value a client sends for it is ignored. The "
        "default only misleads readers into thinking there is a fallback when the resolver fails.\n\n"
        "Fix: drop the default. If the resolver can fail, decide the fallback inside the resolver "
        "(or take `ElicitationResult[T]` to branch on a declined question)."
    )
    INVALID = [
        Invalid(
            _HEADER + "@mcp.tool()\n"
            "def greet(title: str, lang: Annotated[str, Resolve(locale)] = 'en') -> str:\n    return lang\n",
            at=(11, 23, 11, 60),
            fixed=(
                "from typing import Annotated\n"
                "from mcp.server import MCPServer\n"
                "from mcp.server.mcpserver import Resolve\n"
                "\n"
                "mcp = MCPServer('s')\n"
                "\n"
                "def locale(title: str) -> str:\n"
                "    return 'fr'\n"
                "\n"
                "@mcp.tool()\n"
                "def greet(title: str, lang: Annotated[str, Resolve(locale)]) -> str:\n"
                "    return lang\n"
            ),
        )
    ]
    VALID = [
        _HEADER + "@mcp.tool()\n"
        "def greet(title: str, lang: Annotated[str, Resolve(locale)]) -> str:\n    return lang\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for site in every_parameter(graph, self.code, _defaulted_resolved):
            if site.span is not None:
                yield self._report(site, site.span)

    def _report(self, site: ParameterSite, span: Span) -> Diagnostic:
        p = site.param
        return self.diagnostic(
            span,
            f"the default {p.default} of resolved parameter {p.name!r} of {site.owner} is never used: the SDK "
            "always runs the resolver and injects its value",
            tool=site.tool,
            resolver=site.resolver,
            help=f"drop `= {p.default}`; handle a missing value inside the resolver",
        )


def _defaulted_resolved(p: Parameter) -> bool:
    return p.kind == "resolved" and p.default is not None
