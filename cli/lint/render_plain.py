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


NOTHING_TO_CHECK = "Nothing to check: no Python files found."


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def analysed_text(result: LintResult) -> str:
    """What the run analysed (`5 files, 2 servers, 17 tools`): a summary is never silent about
    how much it looked at, so a server whose tools mcpdeps did not find shows as `0 tools`."""
    return ", ".join(
        (_count(result.files, "file"), _count(result.servers, "server"), _count(result.tools, "tool"))
    )


def concise_line(d: Diagnostic) -> str:
    return f"{printable(d.path)}:{d.line}:{d.column}: {d.code} {printable(d.message)}"


def summary_parts(result: LintResult) -> list[tuple[str, str]]:
    """The summary line as runs of (text, rich style); `render_text.summary_line` styles them."""
    if not result.diagnostics:
        if not result.files:
            return [(NOTHING_TO_CHECK, "yellow")]
        return [(f"All checks passed! {analysed_text(result)}", "green")]
    errors, warnings, infos = result.count("error"), result.count("warning"), result.count("info")
    parts = [
        f"{n} {label}{'s' * (n != 1)}"
        for n, label in ((errors, "error"), (warnings, "warning"), (infos, "info"))
        if n
    ]
    # Count the files the findings are in: linting server.py alone can report its imported deps.py.
    where = len({d.path for d in result.diagnostics})
    runs = [
        (f"Found {', '.join(parts)} in {_count(where, 'file')}; checked {analysed_text(result)}.", "bold")
    ]
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
