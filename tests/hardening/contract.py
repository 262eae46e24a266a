"""Checks that a command's output is the contract's document (docs: contracts.md), nothing more."""

from __future__ import annotations

import json
import subprocess
from typing import Any

DIAGNOSTIC_KEYS = {
    "code",
    "name",
    "severity",
    "message",
    "path",
    "line",
    "column",
    "end_line",
    "end_column",
    "tool",
    "related",
    "fix",
}
SUMMARY_KEYS = {"files", "parsed", "errors", "warnings", "infos"}


def no_crash(proc: subprocess.CompletedProcess[str], codes: tuple[int, ...] = (0, 1)) -> None:
    """The run ended with an allowed exit code and without a traceback or internal error."""
    assert proc.returncode in codes, (proc.returncode, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert "internal error" not in proc.stderr, proc.stderr[-2000:]
    assert "RecursionError" not in proc.stdout + proc.stderr


def lint_document(text: str) -> dict[str, Any]:
    """Parse `lint --format json` output and check every key the contract fixes."""
    doc = json.loads(text)
    assert set(doc) == {"version", "diagnostics", "summary"} and doc["version"] == 1
    assert set(doc["summary"]) == SUMMARY_KEYS
    for d in doc["diagnostics"]:
        assert set(d) == DIAGNOSTIC_KEYS, d
        assert d["line"] >= 1 and d["column"] >= 1 and d["end_line"] >= d["line"]
        assert d["severity"] in {"error", "warning", "info"}
        assert d["code"].startswith("MCPD") and len(d["code"]) == 7
    keys = [(d["path"], d["line"], d["column"], d["code"]) for d in doc["diagnostics"]]
    assert keys == sorted(keys), "diagnostics must be sorted by path, line, column, code"
    errors = sum(d["severity"] == "error" for d in doc["diagnostics"])
    assert doc["summary"]["errors"] == errors
    return doc


def graph_document(text: str) -> dict[str, Any]:
    """Parse `graph --format json` output and check its top-level shape."""
    doc = json.loads(text)
    assert set(doc) == {"version", "servers", "resolvers"} and doc["version"] == 1
    for server in doc["servers"]:
        for tool in server["tools"]:
            assert {"name", "function", "path", "line", "arguments", "context", "resolved"} <= set(tool)
    return doc
