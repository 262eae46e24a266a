"""The bodies of the read-only tools: the commands' own engines and renderers, called as functions.

`lint` is `lint_rules` with the settings `mcpdeps lint` would use and the JSON
renderer of `--format json`; `graph` is the static graph, `--tool` selection,
JSON document and rich tree of `mcpdeps graph`; `explain` is `mcpdeps rule`'s
page. Each result carries the document as `structuredContent` (validated by the
SDK against the tool's output schema) and, as text for the model to read, a short
human summary instead of the same JSON again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent

from ...lint_rules import LintResult
from ...lint_rules.settings import Settings
from ..errors import UserError
from .models import RuleReport
from .serial import alone
from .workspace import Targets

MAX_TEXT_LINES = 60
"""Diagnostics listed in a text summary; the structured document always holds all of them."""


def result(text: str, document: dict[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=document)


def settings_for(targets: Targets, flags: dict[str, Sequence[str]], select: Sequence[str]) -> Settings:
    """`mcpdeps lint`'s settings for these paths: the project's config, then the tool's arguments.

    `flags` names each argument as the agent wrote it, so an unknown rule is reported under its name.
    """
    from ..lint.options import check_selectors, lint_settings

    try:
        check_selectors({name: list(values) for name, values in flags.items()})
        return lint_settings(targets.paths, targets.cwd, select=select, ignore=flags.get("ignore", ()))
    except UserError as exc:
        raise ToolError(str(exc)) from None


def lint_document(result_: LintResult) -> dict[str, Any]:
    """`mcpdeps lint --format json`'s document (fix edits filled in), parsed back."""
    from ...lint_rules.fixes import with_fixes
    from ..lint.render_report import to_json

    document: dict[str, Any] = json.loads(to_json(with_fixes(result_)))
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
    from ...lint_rules.settings import run

    with alone("lint these files", targets.workspace):
        settings = settings_for(targets, {"select": select, "ignore": ignore}, select)
        found = run(targets.paths, settings, cwd=targets.cwd, cache_dir=cache_dir(targets), fixes=True)
        document = {**lint_document(found), "workspace": targets.workspace.info().model_dump(mode="json")}
        return result(with_note(diagnostics_text(found), targets), document)


def graph_report(targets: Targets, tool: str | None) -> CallToolResult:
    from ...resolver_core.graph_json import dumps, graph_document
    from ..graph.problems import find_problems
    from ..graph.render import print_graph
    from ..graph.select import select
    from ..graph.sources import refuse_unparsable, static_graph

    with alone("draw this graph", targets.workspace):
        try:
            full = static_graph(targets.paths, targets.cwd)
            refuse_unparsable(full)
            chosen = select(full, (), [tool] if tool else ())
        except UserError as exc:
            raise ToolError(str(exc)) from None
        document = json.loads(dumps(graph_document(chosen)))
        tree = print_graph(chosen, capture=True, problems=find_problems(chosen)) or ""
        document["workspace"] = targets.workspace.info().model_dump(mode="json")
        return result(with_note(tree.rstrip("\n"), targets), document)


def rule_report(code: str) -> CallToolResult:
    from ...lint_rules.docs import rule_markdown
    from ...lint_rules.fixes import is_fixable
    from ...lint_rules.registry import ALL_RULES, UnknownRule, find_rule

    try:
        rule = find_rule(code.strip())
    except UnknownRule as exc:
        known = ", ".join(r.code for r in ALL_RULES)
        raise ToolError(f"There is no {str(exc).removeprefix('unknown ')}; the rules are {known}.") from None
    with alone("explain this rule"):
        markdown = rule_markdown(rule)
    report = RuleReport(
        code=rule.code,
        name=rule.name,
        severity=rule.severity,
        summary=rule.summary,
        fixable=is_fixable(rule.code),
        markdown=markdown,
    )
    return result(markdown, report.model_dump(mode="json"))
