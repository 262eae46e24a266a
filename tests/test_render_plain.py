"""An unstyled `concise` report is printed without rich, and it is byte for byte what rich prints.

`cli/lint/render_plain.py` writes the report of a run that may not be styled (a pipe, a file,
CI) as plain text; every other human report goes through rich (`render_text.py`). Here random
diagnostics (any characters in paths and messages: controls, tabs, wide and combining
characters, rich markup, trailing spaces) are printed both ways, and a real run to a pipe is
checked to load no rich at all.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

from conftest import EXAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st
from mcpdeps.cli.lint.render_plain import concise_text
from mcpdeps.cli.lint.render_text import render_diagnostics
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


@settings(max_examples=300, deadline=None)
@given(result, st.sampled_from([20, 80, 10_000]))
def test_the_plain_concise_report_is_what_rich_prints_unstyled(result: LintResult, width: int) -> None:
    # As `render_report.report_text` made them: to a file, and to a stream that is no terminal.
    to_file = Console(file=io.StringIO(), highlight=False, color_system=None, width=10_000)
    to_pipe = Console(file=io.StringIO(), highlight=False, width=width)
    assert not to_pipe.is_terminal
    plain = concise_text(result)
    assert plain == _through_rich(result, to_file)
    assert plain == _through_rich(result, to_pipe)


def test_a_concise_run_to_a_pipe_loads_no_rich() -> None:
    code = (
        "import sys, runpy; sys.argv = ['mcpdeps', 'lint', '--no-cache', '--exit-zero', '--format', 'concise', "
        f"{str(EXAMPLES / 'broken')!r}]\n"
        "try:\n    runpy.run_module('mcpdeps', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'rich')), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", "import json\n" + code], capture_output=True, text=True, timeout=120
    )
    assert "MCPD" in done.stdout and "Found " in done.stdout, done.stderr
    assert json.loads(done.stderr.splitlines()[-1]) == []
