"""The bodies of the read-only tools: the engine asked (`lint_rules.api`), the commands' renderers.

`lint` is the engine's lint with the JSON renderer of `--format json`; `graph` is the
engine's graph with the JSON document and rich tree of `mcpdeps graph`; `explain` is the
engine's rule page, as `mcpdeps rule` shows it. Each result carries the document as
`structuredContent` (validated by the SDK against the tool's output schema) and, as text
for the model to read, a short human summary instead of the same JSON again. A request the
engine refuses is a tool error with the engine's sentence.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mcp.types import CallToolResult, TextContent

from ...lint_rules import LintResult, api
from .models import RuleReport
from .serial import alone
from .workspace import Targets

MAX_TEXT_LINES = 60
"""Diagnostics listed in a text summary; the structured document always holds all of them."""


def result(text: str, document: dict[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=document)


def lint_request(
    targets: Targets, select: Sequence[str], ignore: Sequence[str] = (), *, select_is: str = "select"
) -> api.LintRequest:
    """The engine's request for these paths; `select_is` names the argument that selects rules
    (`codes` for `fix`), so an unknown rule is reported under the name the agent wrote."""
    return api.LintRequest(
        targets.paths,
        targets.cwd,
        select=select,
        ignore=ignore,
        flags={"select": select_is, "ignore": "ignore"},
    )


def lint_document(result_: LintResult) -> dict[str, Any]:
    """`mcpdeps lint --format json`'s document (fix edits filled in), parsed back."""
    from ..lint.render_report import to_json

    document: dict[str, Any] = json.loads(to_json(api.with_fixes(result_)))
    return document


def diagnostics_text(result_: LintResult) -> str:
    """`--format concise` lines (at most MAX_TEXT_LINES) and the summary line of `mcpdeps lint`."""
    from ..lint.render_text import FIX_HINT, concise_line, summary_text

    lines = [concise_line(d) for d in result_.diagnostics[:MAX_TEXT_LINES]]
    if len(result_.diagnostics) > MAX_TEXT_LINES:
        lines.append(
            f"... and {len(result_.diagnostics) - MAX_TEXT_LINES} more (all are in structuredContent)."
        )
    summary = summary_text(result_).replace(FIX_HINT, "with `fix`")
    return "\n".join([*lines, summary])


def with_note(text: str, targets: Targets) -> str:
    note = targets.workspace.note
    return f"{text}\n\nNote: {note}" if note else text


def cache_dir(targets: Targets) -> Path | None:
    """`mcpdeps lint`'s cache folder, when it lies in the workspace (an agent re-lints often; a warm run
    re-checks only what an edit can have changed). Outside the roots nothing is written: no cache."""
    from ...resolver_core.cache import default_cache_dir

    folder = default_cache_dir(targets.cwd)
    return folder if targets.workspace.contains(folder.parent.resolve()) else None


def lint_report(targets: Targets, select: Sequence[str], ignore: Sequence[str]) -> CallToolResult:
    with alone("lint these files", targets.workspace):
        found = api.lint(lint_request(targets, select, ignore), cache_dir=cache_dir(targets), fixes=True)
        document = {**lint_document(found), "workspace": targets.workspace.info().model_dump(mode="json")}
        return result(with_note(diagnostics_text(found), targets), document)


def graph_report(targets: Targets, tool: str | None) -> CallToolResult:
    from ...resolver_core.graph_json import dumps, graph_document
    from ..graph.render import print_graph

    with alone("draw this graph", targets.workspace):
        found = api.graph(api.GraphRequest(targets.paths, targets.cwd, tools=[tool] if tool else ()))
        document = json.loads(dumps(graph_document(found.graph)))
        tree = print_graph(found.graph, capture=True, problems=found.problems) or ""
        document["workspace"] = targets.workspace.info().model_dump(mode="json")
        return result(with_note(tree.rstrip("\n"), targets), document)


def rule_report(code: str) -> CallToolResult:
    with alone("explain this rule"):
        page = api.explain(code)
    rule = page.rule
    report = RuleReport(
        code=rule.code,
        name=rule.name,
        severity=rule.severity,
        summary=rule.summary,
        fixable=page.fixable,
        markdown=page.markdown,
    )
    return result(page.markdown, report.model_dump(mode="json"))
