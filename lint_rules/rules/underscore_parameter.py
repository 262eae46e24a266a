"""MCPD006: a tool parameter whose name starts with `_`."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph
from ..base import Invalid, Rule, RuleFix


class UnderscoreParameter(Rule):
    code = "MCPD006"
    name = "underscore-parameter"
    FIX = RuleFix(
        "rename the parameter (and its uses) without the leading underscore",
        fixer="mcpdeps.lint_rules.fixes.rename_parameter",
        splice="mcpdeps.lint_rules.fixes.spans_rename:rename_parameter",
        safety_note="The SDK refuses the server as it is; the rename follows the parameter's scope, "
        "so a nested function's own parameter of the same name is left alone.",
    )
    known_problems = "The fix is refused when the new name is already taken in the function."
    summary = "A tool parameter's name starts with `_` (Context and resolved parameters included)."
    explanation = (
        "The SDK builds a pydantic model from the tool's signature and refuses any parameter whose "
        "name starts with an underscore, whatever it is — an argument, the Context or a resolved "
        "parameter. Resolver parameters are exempt. Rename it."
    )
    INVALID = [
        Invalid(
            "from mcp.server import MCPServer\n\n"
            "mcp = MCPServer('s')\n\n"
            "@mcp.tool()\n"
            "def t(_title: str) -> str:\n    return _title\n",
            at=(6, 7, 6, 18),
            fixed=(
                "from mcp.server import MCPServer\n"
                "\n"
                "mcp = MCPServer('s')\n"
                "\n"
                "@mcp.tool()\n"
                "def t(title: str) -> str:\n"
                "    return title\n"
            ),
        )
    ]
    VALID = [
        "from mcp.server import MCPServer\n\n"
        "mcp = MCPServer('s')\n\n"
        "@mcp.tool()\n"
        "def t(title: str) -> str:\n    return title\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for _, tool in graph.tools():
            for p in tool.parameters:
                if p.name.startswith("_") and p.span is not None:
                    yield self.diagnostic(
                        p.span,
                        f"parameter {p.name!r} of tool {tool.name!r} starts with '_'; the SDK refuses it",
                        tool=tool.name,
                        help=f"rename it to {p.name.lstrip('_') or 'value'!r}",
                    )
