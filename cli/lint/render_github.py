"""GitHub Actions workflow commands: one annotation per diagnostic on the pull request's diff.

`::error file=...,line=...,col=...,endLine=...,endColumn=...,title=...::message`.
GitHub has no "info" annotation, so info diagnostics become `notice`. Property
values and the message are escaped the way the Actions runner decodes them
(`%`, CR, LF everywhere; also `:` and `,` inside properties), otherwise a
message with a newline or a path with a comma would break the annotation. Other control
characters (which the runner does not decode) are written as `printable` escapes.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ..printable import printable

COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def _escape_data(text: str) -> str:
    """The runner's encoding, then every other control character written as an escape: the
    log shows a workflow command raw, so `ESC [2J` from a file name would reach the terminal."""
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(d: Diagnostic) -> str:
    """The workflow command for one diagnostic."""
    props = {
        "file": d.path,
        "line": d.line,
        "col": d.column,
        "endLine": d.end_line,
        "endColumn": d.end_column,
        "title": f"mcpdeps {d.code} ({d.name})",
    }
    fields = ",".join(f"{key}={_escape_property(str(value))}" for key, value in props.items())
    return f"::{COMMAND[d.severity]} {fields}::{_escape_data(f'{d.code} {d.message}')}"


def to_github(diagnostics: Iterable[Diagnostic]) -> str:
    return "".join(github_line(d) + "\n" for d in diagnostics)
