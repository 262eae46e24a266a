"""MCPD114: a `# mcpdeps: ignore` comment that silences nothing."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph
from ..base import Invalid, Rule, RuleFix


class UnusedSuppression(Rule):
    code = "MCPD114"
    name = "unused-suppression"
    FIX = RuleFix("remove the unused suppression")
    severity = "info"
    summary = "A `# mcpdeps: ignore[...]` comment silences nothing (or names an unknown rule)."
    explanation = (
        "A suppression that no longer matches a diagnostic is dead weight, and it would silently "
        "hide the next real problem reported on that line. It is also reported when it names a rule "
        "that does not exist, or when an `ignore-file` comment sits below the first statement, where "
        "it has no effect. `--fix` removes the comment (or just the codes that silence nothing)."
    )
    INVALID = [
        Invalid(
            "from mcp.server import MCPServer\n\n"
            "mcp = MCPServer('s')  # mcpdeps: ignore\n\n"
            "@mcp.tool()\n"
            "def t(title: str) -> str:\n    return title\n",
            at=(3, 23, 3, 40),
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
        "def t(_title: str) -> str:  # mcpdeps: ignore[MCPD006]\n    return _title\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        """Nothing here: `lint_rules.suppressions` reports it, after the other rules ran."""
        return ()
