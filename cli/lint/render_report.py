"""Where a lint report goes (the terminal, stderr, `--output-file`) and the machine formats:
`json` here, `sarif`/`github` in `render_sarif.py`/`render_github.py`, `--statistics` as JSON.

No rich at module level: the machine formats are what CI and pre-commit read, and they
need none of it (importing rich was a tenth of a warm run). The human formats load
`render_text.py` when they print (a warm run replays its report without it: `report_memo.py`).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UserError

if TYPE_CHECKING:
    from ...lint_rules import LintResult


def to_json(result: LintResult) -> str:
    """The contract's JSON document (sorted, stable bytes)."""
    doc = {
        "version": 1,
        "diagnostics": [d.contract_dict() for d in result.diagnostics],
        "summary": {
            "files": result.files,
            "parsed": result.parsed,
            "errors": result.count("error"),
            "warnings": result.count("warning"),
            "infos": result.count("info"),
        },
    }
    from ...resolver_core.graph_json import escape_surrogates

    return escape_surrogates(json.dumps(doc, indent=2, ensure_ascii=False))


def statistics_rows(result: LintResult) -> list[dict[str, object]]:
    """Diagnostics counted per rule, most frequent first (`--statistics`)."""
    from ...lint_rules.fixes import may_fix

    rows: dict[str, dict[str, object]] = {}
    for d in result.diagnostics:
        row = rows.setdefault(d.code, {"code": d.code, "name": d.name, "count": 0, "fixable": False})
        row["count"] = int(row["count"]) + 1  # type: ignore[call-overload]
        row["fixable"] = bool(row["fixable"]) or may_fix(d)
    return sorted(rows.values(), key=lambda r: (-int(r["count"]), str(r["code"])))  # type: ignore[call-overload]


Writer = Callable[["LintResult", bool, bool], str]
"""Writes a report of a result: (result, to a file, to stderr) -> the text as written."""


def load_renderer(fmt: str, statistics: bool = False) -> Writer:
    """The function writing a report in `fmt` (or its `--statistics`: counts as JSON in the
    machine formats), with what it imports imported: `report_text` calls it to write, and `lint`
    while its last workers finish, when a core is free and this process only waits (rich is the
    larger part of writing a human report)."""
    from ...lint_rules import fixes  # noqa: F401  (fixable marks; the fixes json and sarif list)

    if statistics and fmt in ("json", "sarif", "github"):
        return lambda result, _to_file, _to_stderr: json.dumps(statistics_rows(result), indent=2) + "\n"
    if fmt == "github":
        from .render_github import to_github

        return lambda result, _to_file, _to_stderr: to_github(result.diagnostics)
    if fmt in ("json", "sarif"):
        from ...lint_rules.api import with_fixes

        if fmt == "json":
            return lambda result, _to_file, _to_stderr: to_json(with_fixes(result)) + "\n"
        from .render_sarif import to_sarif

        return lambda result, _to_file, _to_stderr: to_sarif(with_fixes(result)) + "\n"
    from .render_text import render_diagnostics, render_statistics

    if statistics:
        return functools.partial(_rich_text, render_statistics)
    return functools.partial(_rich_text, functools.partial(render_diagnostics, fmt=fmt))


def _rich_text(render: Callable[..., None], result: LintResult, to_file: bool, to_stderr: bool) -> str:
    """What rich prints of `render(result, console)` to the stream (styled as rich styles for it:
    the terminal's width and colours, none for a file)."""
    from rich.console import Console

    console = (
        Console(file=io.StringIO(), highlight=False, color_system=None, width=10_000)
        if to_file
        else Console(highlight=False, stderr=to_stderr)
    )
    with console.capture() as captured:
        render(result, console=console)
    return captured.get()


def write_report(
    result: LintResult,
    *,
    fmt: str,
    output_file: Path | None = None,
    statistics: bool = False,
    to_stderr: bool = False,
) -> str:
    """Print or save a report in any format; files get no colour, the terminal follows rich's rules.

    Returns the text written, as written (escape codes included): the report memo keeps it.
    """
    if output_file is not None:
        text = report_text(result, fmt, statistics, to_file=True)
    else:
        with _stream_errors(to_stderr):  # rich writes to the stream as it ends a capture
            text = report_text(result, fmt, statistics, to_file=False, to_stderr=to_stderr)
    write_text(text, output_file, to_stderr)
    return text


def write_text(text: str, output_file: Path | None, to_stderr: bool = False) -> None:
    """Where a report goes: the file (`--output-file`), else stdout (stderr under `--fix -`)."""
    if output_file is None:
        with _stream_errors(to_stderr):
            stream = sys.stderr if to_stderr else sys.stdout
            stream.write(text)
            stream.flush()  # a full disk says so here, not in the interpreter's last flush
        return
    try:
        # surrogateescape: a non-UTF-8 file name is written as its bytes, as on the terminal.
        with open(output_file, "w", encoding="utf-8", errors="surrogateescape") as stream:
            stream.write(text)
    except OSError as exc:
        raise UserError(f"Cannot write the report to {output_file}: {exc.strerror or exc}.") from exc


@contextlib.contextmanager
def _stream_errors(to_stderr: bool) -> Iterator[None]:
    """A standard stream that cannot take the report is one sentence (exit 2): closed at start
    (`mcpdeps lint >&-`), or full (`>/dev/full`). A reader gone away (`| head`) is not: that
    is the quiet exit 1 every command makes."""
    name = "standard error" if to_stderr else "standard output"
    if (sys.stderr if to_stderr else sys.stdout) is None:
        raise UserError(f"Cannot write the report: {name} is closed.")
    try:
        yield
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise
        raise UserError(f"Cannot write the report to {name}: {exc.strerror or exc}.") from exc


def report_text(
    result: LintResult, fmt: str, statistics: bool, *, to_file: bool, to_stderr: bool = False
) -> str:
    """The report as it is written (`load_renderer`)."""
    return load_renderer(fmt, statistics)(result, to_file, to_stderr)
