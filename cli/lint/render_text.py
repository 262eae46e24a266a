"""Rendering lint results for people, through rich: `full` (ruff-like code frames),
`concise` and `--statistics`. The machine formats and where a report goes are
`render_report.py`, which imports this module only for these formats.

`render_diagnostics` is shared by `lint`, `serve` (refusal) and `new` (re-lint),
so users see one format everywhere; the agent (`mcpdeps mcp`) words its reports with the
same `concise_line` and `summary_text`. An unstyled report (a pipe, a file, CI) is this
renderer with no colour: rich decides, as it does for every other stream.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from ...lint_rules import LintResult
from ...lint_rules.same_place import names_a_tool
from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.lines import split_lines
from ..printable import printable, printable_line
from .render_report import statistics_rows

STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}

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


def _source_lines(result: LintResult, path: str) -> list[str]:
    info = result.graph.sources.get(path)
    return split_lines(info.text) if info is not None and info.text is not None else []


def _frame(console: Console, d: Diagnostic, lines: Sequence[str]) -> None:
    """A code frame with a caret under the span, like ruff's full output."""
    if not lines or d.line > len(lines):
        return
    first = max(1, d.line - 1)
    width = len(str(d.line))
    gutter = " " * width
    console.print(Text(f"{gutter} |", style="blue"))
    for n in range(first, d.line + 1):
        # Only the gutter is blue: code keeps the terminal's own colour, as in ruff.
        console.print(
            Text.assemble((f"{n:>{width}} | ", "blue"), printable_line(lines[n - 1])), soft_wrap=True
        )
    end = d.end_column if d.end_line == d.line and d.end_column > d.column else len(lines[d.line - 1]) + 1
    caret = Text.assemble((f"{gutter} | ", "blue"))
    caret.append(" " * (d.column - 1) + "^" * max(1, end - d.column), style=STYLE[d.severity])
    caret.append(f" {d.code}", style=STYLE[d.severity])
    console.print(caret, soft_wrap=True)
    console.print(Text(f"{gutter} |", style="blue"))


def _cycle(console: Console, d: Diagnostic) -> None:
    """Draw a resolver cycle as a loop, the way dishka draws dependency cycles."""
    names = d.message.partition(": ")[2].split(" -> ")[:-1]
    if not names:
        return
    places = {r.message.split(" depends on ")[0]: f"{printable(r.path)}:{r.line}" for r in d.related}
    width = max(len(n) for n in names)
    for i, name in enumerate(names):
        lead = "   ╭─▶ " if i == 0 else "   │   "
        console.print(
            Text(lead, style="red")
            + Text(printable(name).ljust(width), style="bold")
            + Text(f"   {places.get(name, '')}", style="dim")
        )
        console.print(Text("   │     ▼" if i < len(names) - 1 else "   │     │", style="red"))
    console.print(Text("   ╰─────╯", style="red"))


def render_full(result: LintResult, console: Console) -> None:
    for d in result.diagnostics:
        head = Text()
        head.append(f"{printable(d.path)}:{d.line}:{d.column}: ", style="bold")
        head.append(d.code, style=STYLE[d.severity])
        head.append(f" {printable(d.message)}")
        console.print(head, soft_wrap=True)
        _frame(console, d, _source_lines(result, d.path))
        if d.code == "MCPD001":
            _cycle(console, d)
        for r in d.related:
            if d.code != "MCPD001" or names_a_tool(r):  # a cycle's edges are drawn above
                note = f"   = note: {printable(r.path)}:{r.line}:{r.column}: {printable(r.message)}"
                console.print(Text(note, style="dim"))
        if d.help:
            console.print(Text("   = help: ", style="bold cyan") + Text(printable(d.help)), soft_wrap=True)
        console.print()


def summary_line(result: LintResult) -> Text:
    """The summary, styled: the first run's style is the whole line's (the fix hint is bold too)."""
    (text, style), *rest = summary_parts(result)
    line = Text(text, style=style)
    for text, style in rest:
        line.append(text, style=style)
    return line


def render_diagnostics(result: LintResult, *, console: Console, fmt: str = "full") -> None:
    """Print a lint result in one of the human formats (`full`, `concise`)."""
    if fmt == "concise":
        for d in result.diagnostics:
            console.print(Text(concise_line(d)), soft_wrap=True, highlight=False)
    else:
        render_full(result, console)
    console.print(summary_line(result), soft_wrap=True)


def render_statistics(result: LintResult, console: Console) -> None:
    rows = statistics_rows(result)
    width = max((len(str(r["count"])) for r in rows), default=1)
    for r in rows:
        line = Text(f"{r['count']:>{width}}  ")
        line.append(str(r["code"]), style=STYLE[_severity_of(str(r["code"]))])
        line.append(f"  {'[*] ' if r['fixable'] else '    '}{r['name']}")
        console.print(line, soft_wrap=True)


def _severity_of(code: str) -> str:
    from ...lint_rules.registry import find_rule

    return find_rule(code).severity
