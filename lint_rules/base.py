"""The shape every rule has, the way Fixit rules carry their own examples.

A rule is a class with a code, a kebab-case name, a severity, a one-line
summary, documentation, and `VALID`/`INVALID` source examples that the test
suite lints (each example is a `server.py` of its own). `check` reads the
graph and yields diagnostics; `diagnostic()` fills in the boilerplate.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from ..resolver_core.diagnostics import Diagnostic, Fix, Related, Severity
from ..resolver_core.model import Graph, Resolver, Span


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity] = "error"
    summary: ClassVar[str]
    explanation: ClassVar[str] = ""
    """Why it matters and how to fix it (`mcpdeps rule CODE`, docs/rules.md)."""
    VALID: ClassVar[list[str]] = []
    INVALID: ClassVar[list[str]] = []
    INVALID_AT: ClassVar[list[tuple[int, int]]] = []
    """Where each INVALID example is reported (line, column), as Fixit's `Invalid(line=, column=)`;
    empty for rules whose examples only say that they are reported."""
    enabled_by_default: ClassVar[bool] = True
    """False for opt-in rules (ruff's security rules are so): they run only when a selector
    names them (`--extend-select MCPD207`, `select = ["ALL"]`), not by default."""

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        raise NotImplementedError

    def diagnostic(
        self,
        span: Span,
        message: str,
        *,
        tool: str | None = None,
        related: Iterable[Related] = (),
        fix: Fix | None = None,
        help: str | None = None,
        resolver: Resolver | None = None,
    ) -> Diagnostic:
        """A diagnostic of this rule; `resolver=` when it is about a resolver rather than a tool.

        Such a diagnostic names the first tool that runs the resolver; when tools of several
        files run it, only the first file's is kept (`lint_rules.per_file.combine`).
        """
        return Diagnostic(
            code=self.code,
            name=self.name,
            severity=self.severity,
            message=message,
            path=span.path,
            line=span.line,
            column=span.column,
            end_line=span.end_line,
            end_column=span.end_column,
            tool=tool,
            related=list(related),
            fix=fix,
            help=help,
            _resolver=resolver.key if resolver is not None else None,
        )


def related(span: Span | None, message: str) -> list[Related]:
    """A one-element related list, or none when the place is unknown."""
    return [Related(path=span.path, line=span.line, column=span.column, message=message)] if span else []
