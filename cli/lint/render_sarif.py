"""SARIF 2.1.0 output, for GitHub code scanning and other SARIF consumers.

Every rule is described in `tool.driver.rules` (not only the ones that fired),
so a consumer can show a rule's documentation for any result id; results
point at files relative to `%SRCROOT%` (the current folder) so the log is
portable. Messages end with a period and the tool gives its version and
home page, because Microsoft's validator (`sarif-multitool validate`) warns
otherwise, and the tests run it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ...lint_rules import LintResult
from ...lint_rules.base import Rule
from ...lint_rules.docs import HOME_URL as INFORMATION_URI
from ...lint_rules.docs import rule_url
from ...resolver_core.diagnostics import Diagnostic, Fix, Related

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SRCROOT = "%SRCROOT%"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _uri(path: str) -> str:
    """A relative URI (forward slashes, percent-encoded) or a file:// URI for absolute paths."""
    from urllib.parse import quote

    if os.path.isabs(path):
        return Path(path).as_uri()
    return quote(os.fsencode(Path(path).as_posix()))  # bytes: a non-UTF-8 file name becomes %XX


def _rules() -> list[dict[str, Any]]:
    from ...lint_rules.registry import ALL_RULES

    return [
        {
            "id": rule.code,
            "name": "".join(part.capitalize() for part in rule.name.split("-")),
            "shortDescription": {"text": _sentence(rule.summary)},
            "fullDescription": {"text": _sentence(rule.explanation or rule.summary)},
            "helpUri": rule_url(rule.code),
            "help": {"text": _sentence(rule.explanation or rule.summary)},
            "defaultConfiguration": {"level": LEVEL[rule.severity]},
            "properties": _properties(rule),
        }
        for rule in ALL_RULES
    ]


def _properties(rule: type[Rule]) -> dict[str, Any]:
    """Tags, and for the security rules (MCPD2xx) the `security-severity` GitHub code scanning
    ranks alerts by (a CVSS-like score as a string)."""
    score: str | None = getattr(rule, "security_severity", None)
    if score is None:
        return {"tags": ["mcp", rule.name]}
    return {"tags": ["mcp", "security", rule.name], "security-severity": score}


def _location(path: str, line: int, column: int, end_line: int, end_column: int) -> dict[str, Any]:
    artifact: dict[str, Any] = {"uri": _uri(path)}
    if not os.path.isabs(path):
        artifact["uriBaseId"] = SRCROOT
    return {
        "physicalLocation": {
            "artifactLocation": artifact,
            "region": {
                "startLine": line,
                "startColumn": column,
                "endLine": max(end_line, line),
                "endColumn": end_column if (end_line, end_column) > (line, column) else column + 1,
            },
        }
    }


def _related(index: int, r: Related) -> dict[str, Any]:
    return {
        "id": index,
        **_location(r.path, r.line, r.column, r.line, r.column + 1),
        "message": {"text": _sentence(r.message)},
    }


def _fix(fix: Fix) -> dict[str, Any]:
    by_path: dict[str, list[dict[str, Any]]] = {}
    for e in fix.edits:
        by_path.setdefault(e.path, []).append(
            {
                "deletedRegion": {
                    "startLine": e.line,
                    "startColumn": e.column,
                    "endLine": e.end_line,
                    "endColumn": e.end_column,
                },
                "insertedContent": {"text": e.content},
            }
        )
    changes = []
    for path, replacements in by_path.items():
        location: dict[str, Any] = {"uri": _uri(path)}
        if not os.path.isabs(path):
            location["uriBaseId"] = SRCROOT
        changes.append({"artifactLocation": location, "replacements": replacements})
    return {"description": {"text": _sentence(fix.message)}, "artifactChanges": changes}


def _result(d: Diagnostic, rule_index: dict[str, int]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": d.code,
        "ruleIndex": rule_index[d.code],
        "level": LEVEL[d.severity],
        "message": {"text": _sentence(d.message)},
        "locations": [_location(d.path, d.line, d.column, d.end_line, d.end_column)],
    }
    if d.related:
        result["relatedLocations"] = [_related(i, r) for i, r in enumerate(d.related, 1)]
    if d.fix is not None:
        result["fixes"] = [_fix(d.fix)]
    if d.tool:
        result["properties"] = {"tool": d.tool}
    return result


def to_sarif(result: LintResult, *, cwd: Path | None = None) -> str:
    """The whole SARIF log as a string (stable bytes for the same input)."""
    from ... import __version__ as tool_version

    rules = _rules()
    rule_index = {rule["id"]: i for i, rule in enumerate(rules)}
    root = (cwd or Path.cwd()).absolute().as_uri().rstrip("/") + "/"
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "mcpdeps",
                        "version": tool_version,
                        "semanticVersion": tool_version,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": root}},
                "columnKind": "unicodeCodePoints",
                "results": [_result(d, rule_index) for d in result.diagnostics],
            }
        ],
    }
    from ...resolver_core.graph_json import escape_surrogates

    return escape_surrogates(json.dumps(log, indent=2, ensure_ascii=False))
