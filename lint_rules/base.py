"""The shape every rule has, the way Fixit rules carry their own examples.

A rule is a class with a code, a kebab-case name, a severity, a one-line
summary, documentation, and `VALID`/`INVALID` source examples that the test
suite lints (each example is a `server.py` of its own). `check` reads the
graph and yields diagnostics; `diagnostic()` fills in the boilerplate.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Literal

from ..resolver_core.diagnostics import Diagnostic, Fix, Related, Severity
from ..resolver_core.model import Graph, Resolver, Span
from ..resolver_core.records import record

Safety = Literal["safe", "unsafe"]
"""ruff's applicability: a safe fix keeps what the code does and `--fix` applies it; an unsafe
one changes it (a question asked earlier, a value a client can no longer send), so it is
applied only with `--unsafe-fixes`, offered in the editor but never preferred, never counted
as fixable nor listed in the json/sarif reports."""


@record(slots=False)
class RuleFix:
    """What a rule's fix is, declared on the rule (Fixit's `AUTOFIX`, ruff's `FixAvailability`).

    `fixer` names the module whose `fix(source, diagnostic) -> libcst.Module | None` rewrites
    the file (or `module:function`). A name, not the function: it is imported only when a
    diagnostic of the rule needs a fix, so `lint` without fixes never imports libcst. None:
    the rule's own `check` attaches its edits (cheap ones, from positions it already has).
    A fixer that cannot rewrite a shape answers None; raising is a bug (`fixes.FixerBug`).
    """

    message: str
    """The `Fix.message` (what the fix does, as the editor's code action and `--diff` say it)."""
    fixer: str | None = None
    splice: str | None = None
    """`fixes.spans:<function>`: the same fix for the plain shapes, from `ast` positions and
    without libcst (kept because it is most of a cold json run: benchmarks/README.md); it
    raises `Unsure` for any other shape, which the fixer then decides."""
    safety: Safety = "safe"
    only_when: str = ""
    """Availability "sometimes" (ruff's `FixAvailability::Sometimes`): only diagnostics whose
    message holds this text can be fixed (MCPD002: the typo of a tool argument); empty: any
    diagnostic may be, when its shape is one the fixer rewrites."""
    case: str = ""
    """The case `only_when` picks, in words, for the docs."""
    tidies_imports: bool = False
    """The fix may leave `Optional`/`Union` imported and unused (`fixes.typing_imports`)."""
    docs: str = ""
    """The docs' one-line "Fix:" when the sentence made from the fields would not say it."""
    safety_note: str = ""
    """Why the fix is safe, or what an unsafe one changes ("Fix safety" in the docs)."""

    @property
    def safe(self) -> bool:
        return self.safety == "safe"

    @property
    def availability(self) -> Literal["always", "sometimes"]:
        return "sometimes" if self.only_when else "always"

    def offered_for(self, d: Diagnostic) -> bool:
        """Whether a fix may exist for this diagnostic at all, whatever its file holds."""
        return self.only_when in d.message


class Invalid(str):
    """An INVALID example: its source text (everything that shows or lints an example reads it
    as text), with what the rule must say of it, as Fixit's `Invalid(code, line=, column=,
    expected_replacement=)`: where the diagnostic is (line, column, end line, end column, as in
    the json report) and, for a rule with a fix, the text its fix makes of the example (None:
    no fix is offered for this one). `tests/test_rule_fixes.py` is generated from them."""

    at: tuple[int, int, int, int]
    fixed: str | None

    def __new__(cls, source: str, *, at: tuple[int, int, int, int], fixed: str | None = None) -> Invalid:
        example = super().__new__(cls, source)
        example.at = at
        example.fixed = fixed
        return example


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity] = "error"
    summary: ClassVar[str]
    explanation: ClassVar[str] = ""
    """Why it matters and how to fix it (`mcpdeps rule CODE`, docs/rules.md)."""
    VALID: ClassVar[list[str]] = []
    INVALID: ClassVar[list[Invalid]] = []
    FIX: ClassVar[RuleFix | None] = None
    """The rule's fix, if it has one: the fix engine, the docs and the reports all ask here."""
    known_problems: ClassVar[str] = ""
    """What the rule misses or gets wrong, and the shapes its fix leaves alone ("Known problems")."""
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
