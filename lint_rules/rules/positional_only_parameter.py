"""MCPD106: a positional-only parameter (`/`) on a tool or a resolver."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Parameter, Span
from .._source import ParameterSite, every_parameter
from ..base import Invalid, Rule

_HEADER = (
    "from typing import Annotated\n"
    "from mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Resolve\n\n"
    "mcp = MCPServer('s')\n\n"
)


class PositionalOnlyParameter(Rule):
    code = "MCPD106"
    name = "positional-only-parameter"
    severity = "warning"
    summary = "A tool or resolver has positional-only parameters (`/`): every call crashes."
    explanation = (
        "The SDK calls tools and resolvers with keyword arguments only (`fn(**arguments)`). A "
        "parameter before `/` cannot be passed by keyword, so registration succeeds but every call "
        "fails with `got some positional-only arguments passed as keyword arguments`.\n\n"
        "Fix: remove the `/` from the signature."
    )
    INVALID = [
        Invalid(
            _HEADER + "@mcp.tool()\ndef shout(text: str, /) -> str:\n    return text.upper()\n",
            at=(8, 11, 8, 20),
        ),
        Invalid(
            _HEADER + "def owner(title: str, /) -> str:\n    return title\n\n"
            "@mcp.tool()\ndef t(title: str, o: Annotated[str, Resolve(owner)]) -> str:\n    return o\n",
            at=(7, 11, 7, 21),
        ),
    ]
    VALID = [_HEADER + "@mcp.tool()\ndef shout(text: str) -> str:\n    return text.upper()\n"]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for site in every_parameter(graph, self.code, _positional_only):
            if site.span is not None:
                yield self._report(site, site.span)

    def _report(self, site: ParameterSite, span: Span) -> Diagnostic:
        return self.diagnostic(
            span,
            f"parameter {site.param.name!r} of {site.owner} is positional-only, but the SDK passes every argument by "
            "keyword: every call crashes with a TypeError",
            tool=site.tool,
            resolver=site.resolver,
            help="remove the `/` from the signature",
        )


def _positional_only(p: Parameter) -> bool:
    return p.positional_only
