"""MCPD000: a file that cannot be read or parsed is reported and the run goes on."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph
from ..base import Invalid, Rule


class SyntaxErrorRule(Rule):
    code = "MCPD000"
    name = "syntax-error"
    summary = "A file does not parse (or cannot be read); nothing in it is checked."
    explanation = (
        "mcpdeps never imports your code, so it needs to parse it. A file with a syntax error, "
        "an unknown encoding or null bytes is reported here and skipped; every other file is still "
        "checked. Python itself would refuse to import it, so the server could not start either."
    )
    INVALID = [
        Invalid(
            "def broken(:\n    pass\n",
            at=(1, 12, 1, 13),
        )
    ]
    VALID = ["def broken():\n    pass\n"]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for finding in graph.findings:
            if finding.kind in ("unreadable", "too_deep"):
                yield self.diagnostic(finding.span, finding.message, help=_help(finding.message))


def _help(message: str) -> str:
    """Advice that matches the cause: a file that parses badly, or one that cannot be read at all."""
    if message.startswith(("syntax error", "cannot parse", "cannot decode")):
        return "fix the file so that Python can parse it"
    if message.startswith("file is too large"):
        return "exclude it (`extend-exclude` in [tool.mcpdeps]) if it is generated data, not a server"
    return "name a readable Python file (check the path, its permissions, or exclude it)"
