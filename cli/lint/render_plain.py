"""The human formats' lines as plain text: what rich prints when it may not style them.

Why: a `concise` report to a pipe, a file or CI, and a report with nothing found, are lines
of plain text. Printing them through rich cost importing it, a tenth of a run that re-checks
one edited file. `render_text.py` builds its styled lines from the same pieces, and
`tests/test_render_plain.py` checks, on random diagnostics, that these bytes are the ones
rich prints unstyled. No rich here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..printable import printable

if TYPE_CHECKING:
    from ...lint_rules import LintResult
    from ...resolver_core.diagnostics import Diagnostic

FIX_HINT = "with `mcpdeps lint --fix` (`--diff` to preview)"


def passed_line(files: int) -> str:
    """The human formats' whole report when nothing was found."""
    return f"All checks passed! ({files} file{'s' * (files != 1)} checked)"


def concise_line(d: Diagnostic) -> str:
    return f"{printable(d.path)}:{d.line}:{d.column}: {d.code} {printable(d.message)}"


def summary_parts(result: LintResult) -> list[tuple[str, str]]:
    """The summary line as runs of (text, rich style); `render_text.summary_line` styles them."""
    if not result.diagnostics:
        return [(passed_line(result.files), "green")]
    errors, warnings, infos = result.count("error"), result.count("warning"), result.count("info")
    parts = [
        f"{n} {label}{'s' * (n != 1)}"
        for n, label in ((errors, "error"), (warnings, "warning"), (infos, "info"))
        if n
    ]
    # Count the files the findings are in: linting server.py alone can report its imported deps.py.
    where = len({d.path for d in result.diagnostics})
    runs = [(f"Found {', '.join(parts)} in {where} file{'s' * (where != 1)}.", "bold")]
    from ...lint_rules.fixes import may_fix

    # After `--fix`, what is left is what it declined (a rename it judged unsafe): offer nothing.
    fixable = 0 if result.fixed else sum(1 for d in result.diagnostics if may_fix(d))
    if fixable:
        runs.append((f" {fixable} may be fixed {FIX_HINT}.", ""))
    return runs


def summary_text(result: LintResult) -> str:
    return "".join(text for text, _ in summary_parts(result))


def concise_text(result: LintResult) -> str:
    """The whole `concise` report, unstyled."""
    return "".join(f"{concise_line(d)}\n" for d in result.diagnostics) + summary_text(result) + "\n"
