"""An unstyled `concise` report is one line a diagnostic and the summary, whatever they hold.

There is one renderer (`render_text.py`, through rich); a report to a pipe, a file or CI is
that renderer with no colour. A plain-text twin that skipped importing rich saved about 1% of
a cold one-file run and nothing on a warm one (the report memo replays without rich), so it
was retired (issue 28). Here random diagnostics (any characters in paths and messages:
controls, tabs, wide and combining characters, rich markup, trailing spaces) go through the
renderer as `report_text` sends them to a file and to a narrow pipe, and must come out as the
lines the contract describes, unwrapped and unstyled; a real run to a pipe is checked too.
"""

from __future__ import annotations

import io

from conftest import EXAMPLES, run_mcpdeps
from hypothesis import given, settings
from hypothesis import strategies as st
from mcpdeps.cli.lint.render_text import render_diagnostics, summary_text
from mcpdeps.cli.printable import printable
from mcpdeps.lint_rules import LintResult
from mcpdeps.lint_rules.registry import ALL_RULES
from mcpdeps.resolver_core.diagnostics import SEVERITY_RANK, Diagnostic
from mcpdeps.resolver_core.model import Graph
from rich.console import Console

text = st.text(max_size=30) | st.sampled_from(["[bold]x[/]", ":smile:", "a\tb ", " \u200b\u202e", "\x1b[2J"])
number = st.integers(min_value=0, max_value=10**6)
diagnostic = st.builds(
    Diagnostic,
    code=st.sampled_from(sorted({r.code for r in ALL_RULES})),
    name=text,
    severity=st.sampled_from(sorted(SEVERITY_RANK)),
    # Some messages of MCPD002 say the one case it fixes: the summary counts those.
    message=st.builds(
        lambda a, hint, b: a + hint + b,
        text,
        st.sampled_from(["", *(r.FIX.only_when for r in ALL_RULES if r.FIX is not None and r.FIX.only_when)]),
        text,
    ),
    path=text,
    line=number,
    column=number,
    end_line=number,
    end_column=number,
)
result = st.builds(
    LintResult,
    diagnostics=st.lists(diagnostic, max_size=6),
    files=number,
    parsed=number,
    graph=st.just(Graph()),
    fixed=st.booleans(),
    servers=number,
    tools=number,
)


def _through_rich(result: LintResult, console: Console) -> str:
    with console.capture() as captured:
        render_diagnostics(result, console=console, fmt="concise")
    return captured.get()


def _expected(result: LintResult) -> str:
    """The report as the contract words it, written here independently of the renderer."""
    lines = [
        f"{printable(d.path)}:{d.line}:{d.column}: {d.code} {printable(d.message)}"
        for d in result.diagnostics
    ]
    return "".join(f"{line}\n" for line in lines)


@settings(max_examples=300, deadline=None)
@given(result, st.sampled_from([20, 80, 10_000]))
def test_an_unstyled_concise_report_is_one_unwrapped_line_a_diagnostic(
    result: LintResult, width: int
) -> None:
    # As `render_report.report_text` makes them: to a file, and to a stream that is no terminal.
    to_file = Console(file=io.StringIO(), highlight=False, color_system=None, width=10_000)
    to_pipe = Console(file=io.StringIO(), highlight=False, width=width)
    assert not to_pipe.is_terminal
    for console in (to_file, to_pipe):
        text = _through_rich(result, console)
        assert "\x1b[" not in text
        body, summary = text[: len(_expected(result))], text[len(_expected(result)) :]
        assert body == _expected(result)
        assert summary == summary_text(result) + "\n"  # the summary's words, unwrapped


def test_a_concise_run_to_a_pipe_prints_plain_lines() -> None:
    done = run_mcpdeps("lint", "--no-cache", "--exit-zero", "--format", "concise", str(EXAMPLES / "broken"))
    assert "MCPD" in done.stdout and "Found " in done.stdout, done.stderr
    assert "\x1b[" not in done.stdout
    assert all(line.count(": MCPD") == 1 for line in done.stdout.splitlines()[:-1])
